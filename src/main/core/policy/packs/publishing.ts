import type { Pack } from './types.js';

/** Publishing: releases that cannot be taken back. */
export const publishingPack: Pack = {
  id: 'publishing',
  description: 'Publishing to a registry or the public: npm publish / unpublish / deprecate, cargo publish / yank, twine upload, gem push / yank, docker / podman push, gh release create, poetry / uv / flit publish, helm push, vsce / ovsx publish.',
  rules: String.raw`
[[rule]]
id = "package-publish"
reason = "publishes (or withdraws) a package on a public registry: it cannot be taken back"
unless_flags = ["--dry-run"]
argv_any = '^(?:(?:npm|pnpm|yarn|bun) (?:\S+ )*?(?:publish|unpublish|deprecate|dist-tag (?:add|rm))|cargo (?:publish|yank|owner)|twine upload|gem (?:push|yank|owner)|(?:poetry|uv|flit|hatch|pdm) publish|(?:vsce|ovsx) publish|helm push|dotnet nuget push|nuget push|mvn (?:\S+ )*deploy|gradle (?:\S+ )*publish|mix hex\.publish|pod trunk push|swift package-registry publish)(?: |$)'

[[rule]]
id = "image-push"
reason = "pushes a container image to a registry"
commands = ["docker", "podman", "nerdctl", "buildah", "skopeo", "crane"]
subcommand = ["push", "image push", "manifest push", "copy", "buildx build", "build"]
argv_any = '(?:^(?:docker|podman|nerdctl|buildah|crane) (?:\S+ )*?(?:image |manifest )?push(?: |$)|^skopeo copy |--push(?: |$|=true))'

[[rule]]
id = "release-create"
reason = "creates a public release"
commands = ["gh", "glab"]
subcommand = ["release create|upload|edit"]
`,
};
