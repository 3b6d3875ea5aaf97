import type { Pack } from './types.js';

/** Cloud and infrastructure: deleting resources, applying without review. */
export const cloudPack: Pack = {
  id: 'cloud',
  description: 'Cloud and infrastructure: terraform/tofu/pulumi/cdk destroy or auto-approved apply, aws s3 rm --recursive / rb --force and delete-* / terminate-* calls (global options such as --profile before the service are skipped), gcloud / az / doctl delete, kubectl delete of namespaces or all, helm uninstall. List and describe calls whose filter mentions delete stay allowed.',
  rules: String.raw`
[[rule]]
id = "iac-auto-approve"
reason = "applies infrastructure changes without a plan review (auto-approve / --yes)"
commands = ["terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf"]
subcommand = ["apply|up|deploy|run-all"]
flags_any = ["-auto-approve", "--auto-approve", "--yes", "-y", "--require-approval=never", "--skip-preview", "-f"]

[[rule]]
id = "aws-s3-delete"
reason = "deletes S3 objects recursively or a bucket"
commands = ["aws"]
subcommand = ["s3 rm", "s3 rb"]
flags_any = ["--recursive", "--force"]

[[rule]]
id = "aws-delete-call"
reason = "an AWS API call that deletes or terminates resources"
commands = ["aws"]
args_any = '^(?:(?:batch-)?delete-[a-z0-9-]+|terminate-[a-z-]+|remove-[a-z-]+|deregister-[a-z-]+|purge-queue|empty-bucket|schedule-key-deletion|disable-key)$'

[[rule]]
id = "gcloud-az-delete"
reason = "a gcloud / az / doctl / linode / hcloud command that deletes resources"
commands = ["gcloud", "az", "doctl", "linode-cli", "hcloud", "vultr-cli", "exo", "scw", "oci", "ibmcloud", "flyctl", "fly", "heroku", "vercel", "netlify", "railway"]
args_any = '^(?:delete|destroy|remove|rm|purge|apps:destroy|wipe)$'

[[rule]]
id = "kubectl-delete-wide"
reason = "deletes a namespace, all resources of a kind, or everything matching a selector"
commands = ["kubectl", "oc", "k"]
subcommand = ["delete"]
argv_any = '(?:^| )(?:ns|namespace|namespaces|all|nodes?|pv|persistentvolumes?|crd|customresourcedefinitions?)(?: |/|$)|(?:^| )--all(?:=true)?(?: |$)|(?:^| )(?:-A|--all-namespaces)(?: |$)'

[[rule]]
id = "gsutil-delete"
reason = "deletes Cloud Storage objects recursively or a bucket"
commands = ["gsutil", "gcloud"]
argv_any = '^gsutil (?:-\S+ )*(?:rm -r|rm -a|rb)|^gcloud storage (?:rm (?:\S+ )*--recursive|buckets delete)'
`,
};
