export const title = 'Publishing: packages, images and releases made public (they cannot be taken back)';
export default ({ bad, ok }) => {
  const W = ['sh -c', 'subshell', 'and', 'timeout', 'env', 'function', 'then'];
  const P = 'publishing/package-publish';
  for (const l of ['npm publish', 'npm publish --access public', 'npm publish --tag next', 'npm --workspace pkg publish', 'npm unpublish my-pkg@1.0.0', 'npm unpublish my-pkg --force', 'npm deprecate my-pkg "use x"', 'npm dist-tag add my-pkg@2.0.0 latest',
    'pnpm publish -r', 'pnpm -r publish --no-git-checks', 'yarn publish', 'yarn npm publish', 'bun publish', 'cargo publish', 'cargo publish --allow-dirty', 'cargo yank --version 1.0.0', 'cargo owner --add github:org:team', 'twine upload dist/*',
    'twine upload --repository pypi dist/*', 'gem push my.gem', 'gem yank my -v 1.0', 'poetry publish --build', 'uv publish', 'flit publish', 'hatch publish', 'vsce publish', 'ovsx publish', 'dotnet nuget push pkg.nupkg -k $KEY', 'mvn deploy', 'mvn -B clean deploy',
    'gradle publish', 'mix hex.publish', 'pod trunk push My.podspec', 'helm push chart.tgz oci://registry'])
    bad('ask', P, l, W);
  for (const l of ['docker push me/img', 'docker push registry.example.com/app:latest', 'docker image push me/app:1.0', 'podman push img', 'nerdctl push me/app', 'docker buildx build --push -t me/app .', 'docker build --push -t me/app .', 'skopeo copy docker://a docker://b', 'crane push img.tar me/app', 'docker manifest push me/app:1'])
    bad('ask', 'publishing/image-push', l, W);
  for (const l of ['gh release create v1.0.0', 'gh release create v2 --generate-notes dist/*', 'gh release upload v1 app.zip', 'gh release edit v1 --draft=false', 'glab release create v1']) bad('ask', 'publishing/release-create', l, W);

  for (const l of ['npm pack', 'npm publish --dry-run', 'npm run publish-docs', 'npm run build', 'npm version patch', 'npm login', 'npm whoami', 'npm view react version', 'npm install', 'npm ci', 'pnpm install', 'yarn build', 'cargo build --release', 'cargo package',
    'cargo publish --dry-run', 'python -m build', 'twine check dist/*', 'gem build my.gemspec', 'poetry build', 'uv build', 'docker build -t me/app .', 'docker buildx build -t me/app --load .', 'docker tag me/app me/app:1.0', 'docker images', 'docker login',
    'gh release list', 'gh release view v1.0.0', 'gh release download v1.0.0', 'gh pr create --fill', 'gh pr merge --squash', 'mvn package', 'mvn test', 'gradle build', 'mix test', 'vsce package', 'helm package ./chart', 'pod lib lint',
  ]) ok(l);
};
