export const title = 'Cloud and infrastructure: resources destroyed or terminated, buckets emptied, changes applied without review';
export default ({ bad, ok }) => {
  const W = ['sh -c', 'subshell', 'and', 'timeout', 'env', 'function'];
  for (const l of ['terraform destroy', 'terraform destroy -auto-approve', 'terraform -chdir=infra destroy', 'tofu destroy', 'terragrunt destroy', 'pulumi destroy --yes', 'cdk destroy --force', 'cdktf destroy']) bad('ask', 'terraform-destroy', l, W);
  bad('ask', 'terraform-apply-destroy', 'terraform apply -destroy', W);
  for (const l of ['terraform state rm aws_instance.web', 'terraform workspace delete prod', 'terraform force-unlock 1234']) bad('ask', 'terraform-state-rm', l, W);
  for (const l of ['terraform apply -auto-approve', 'terraform apply --auto-approve -var env=prod', 'tofu apply -auto-approve', 'terragrunt run-all apply --auto-approve', 'pulumi up --yes', 'pulumi up -y --skip-preview', 'cdk deploy --require-approval=never']) bad('ask', 'cloud/iac-auto-approve', l, W);
  for (const l of ['aws s3 rm s3://prod-data --recursive', 'aws --profile prod s3 rm s3://b/ --recursive', 'aws s3 rb s3://prod-data --force', 'aws --region eu-west-1 s3 rb s3://logs --force']) bad('ask', 'cloud/aws-s3-delete', l, W);
  for (const l of ['aws ec2 terminate-instances --instance-ids i-0abc', 'aws --region us-east-1 ec2 terminate-instances --instance-ids i-1', 'aws rds delete-db-instance --db-instance-identifier prod --skip-final-snapshot', 'aws dynamodb delete-table --table-name users',
    'aws iam delete-user --user-name ci', 'aws lambda delete-function --function-name api', 'aws cloudformation delete-stack --stack-name prod', 'aws eks delete-cluster --name prod', 'aws sqs purge-queue --queue-url https://sqs.x/q', 'aws s3api delete-bucket --bucket b',
    'aws ecr batch-delete-image --repository-name app --image-ids imageTag=latest', 'aws route53 delete-hosted-zone --id Z1', 'aws --output json kms schedule-key-deletion --key-id k'])
    bad('ask', 'cloud/aws-delete-call', l, W);
  for (const l of ['gcloud compute instances delete vm1', 'gcloud projects delete my-prod', 'gcloud sql instances delete prod-db --quiet', 'gcloud container clusters delete prod --zone us-central1-a', 'gcloud --project p run services delete api',
    'az group delete -n rg', 'az group delete --name prod-rg --yes --no-wait', 'az vm delete -g rg -n vm1 --yes', 'az storage account delete -n acct', 'doctl compute droplet delete web-1 --force', 'hcloud server delete web', 'heroku apps:destroy --app prod --confirm prod',
    'flyctl apps destroy my-app -y', 'vercel remove my-app --yes', 'linode-cli linodes delete 123'])
    bad('ask', 'cloud/gcloud-az-delete', l, W);
  for (const l of ['gsutil -m rm -r gs://prod-bucket', 'gsutil rm -r gs://b/data', 'gsutil rb gs://b']) bad('ask', 'cloud/gsutil-delete', l, W);
  // gcloud's own delete words are the general gcloud rule's (the same pack).
  for (const l of ['gcloud storage rm --recursive gs://b/', 'gcloud storage buckets delete gs://b']) bad('ask', 'cloud/gcloud-az-delete', l, W);
  for (const l of ['rclone purge remote:backup', 'rclone delete gdrive:docs', 'gh repo delete org/app --yes', 'gh release delete v1.0 --yes', 'gh secret delete API_KEY']) bad('ask', 'cloud-delete', l, W);

  for (const l of ['terraform plan', 'terraform apply', 'terraform init -upgrade', 'terraform fmt -recursive', 'terraform validate', 'terraform state list', 'terraform output -json', 'terraform apply tfplan', 'pulumi preview', 'pulumi up', 'cdk diff', 'cdk synth', 'cdk deploy',
    'aws s3 ls s3://b', 'aws --profile p s3 ls s3://b', 'aws s3 cp s3://b/x.json .', 'aws s3 sync dist/ s3://site/', 'aws ec2 describe-instances --filters Name=tag:delete,Values=no', 'aws sts get-caller-identity', 'aws logs tail /aws/lambda/api --follow',
    'aws dynamodb describe-table --table-name users', 'aws cloudformation describe-stacks', 'aws ecr get-login-password', 'aws lambda invoke --function-name api out.json', 'gcloud compute instances list --filter="name~delete"', 'gcloud config list',
    'gcloud auth login', 'gcloud run deploy api --source .', 'gcloud compute ssh vm1', 'gcloud logging read "severity>=ERROR" --limit 10', 'az account show', 'az vm list -o table', 'az group list --query "[?name==\'delete-me\']"', 'doctl compute droplet list',
    'gsutil ls gs://b', 'gsutil cp gs://b/x .', 'gcloud storage ls gs://b', 'rclone ls remote:backup', 'rclone copy ./dist remote:site', 'gh repo view', 'gh release list', 'gh secret list', 'heroku logs --tail --app prod', 'flyctl status', 'vercel deploy',
  ]) ok(l);
};
