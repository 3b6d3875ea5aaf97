export const title = 'Containers and Kubernetes: namespaces, workloads, volumes and images deleted; containers that own the host';
export default ({ bad, ok }) => {
  const W = ['sh -c', 'subshell', 'and', 'timeout', 'function', 'then'];
  for (const l of ['kubectl delete ns prod', 'kubectl delete namespace payments', 'kubectl --token t delete ns prod', 'kubectl delete all --all', 'kubectl delete pods --all -n prod', 'kubectl delete deploy api', 'kubectl -n prod delete svc api', 'kubectl delete -f k8s/',
    'kubectl delete pvc data-db-0', 'kubectl drain node-1 --ignore-daemonsets --delete-emptydir-data', 'kubectl rollout undo deploy/api', 'kubectl --context prod delete secret db-creds', 'oc delete project staging', 'kubectl delete crd certificates.cert-manager.io'])
    bad('ask', 'kubectl-delete', l, W);
  for (const l of ['kubectl scale deploy api --replicas=0', 'kubectl -n prod scale statefulset db --replicas 0']) bad('ask', 'kubectl-scale-zero', l, W);
  for (const l of ['kubectl apply --prune -f k8s/ -l app=web', 'kubectl replace --force -f pod.yaml']) bad('ask', 'kubectl-apply-prune', l, W);
  for (const l of ['helm uninstall app', 'helm uninstall -n prod ingress', 'helm delete api', 'helm rollback api 1']) bad('ask', 'helm-uninstall', l, W);
  for (const l of ['docker system prune -af --volumes', 'docker system prune -a', 'docker volume prune -f', 'docker volume rm pgdata', 'docker container prune -f', 'docker network prune', 'docker builder prune -af', 'podman system reset -f', 'podman volume rm --all', 'nerdctl system prune -a'])
    bad('ask', 'docker-prune', l, W);
  bad('ask', 'docker-image-prune-all', 'docker image prune -a -f', W);
  for (const l of ['docker rm -f $(docker ps -aq)', 'docker rmi -f $(docker images -q)', 'docker kill $(docker ps -q)', 'docker stop $(docker ps -aq)', 'podman rm -f `podman ps -aq`']) bad('ask', 'docker-rm-all', l, ['subshell', 'and', 'then']);
  for (const l of ['docker compose down -v', 'docker-compose down --volumes', 'docker compose down --rmi all', 'podman-compose down -v']) bad('ask', 'compose-down-volumes', l, W);
  for (const l of ['docker run -v /:/host -it alpine sh', 'docker run --rm -v /:/mnt alpine chroot /mnt sh', 'docker run -v /var/run/docker.sock:/var/run/docker.sock docker', 'podman run --volume /:/h ubuntu', 'docker run --mount type=bind,source=/,target=/host alpine']) bad('ask', 'container-mounts-root', l, W);
  bad('ask', 'container-privileged-host-pid', 'docker run --privileged --pid=host -it alpine nsenter -t 1 -m -u -n -i sh', W);
  bad('ask', 'rm-recursive-root-or-home', 'docker exec app rm -rf /var/lib/postgresql', ['subshell', 'and']);
  bad('ask', 'rm-recursive-root-or-home', 'kubectl exec -it db-0 -- rm -rf /var/lib/mysql', ['subshell', 'and']);

  for (const l of ['kubectl get ns', 'kubectl get pods -A', 'kubectl describe pod api-123', 'kubectl logs -f deploy/api', 'kubectl apply -f k8s/', 'kubectl rollout status deploy/api', 'kubectl rollout restart deploy/api', 'kubectl scale deploy api --replicas=3', 'kubectl port-forward svc/api 8080:80',
    'kubectl config use-context dev', 'kubectl top pods', 'kubectl get events --field-selector reason=Killing', 'kubectl get pods -l app=delete-worker', 'kubectl exec -it api-0 -- ls /app', 'kubectl diff -f k8s/', 'kubectl create ns feature-x',
    'helm list -A', 'helm install app ./chart', 'helm upgrade --install app ./chart -f values.yaml', 'helm template ./chart', 'helm repo update', 'helm status app', 'docker ps -a', 'docker run --rm -it node:20 bash', 'docker run -v "$PWD":/app -w /app node:20 npm test',
    'docker build -t app .', 'docker compose up -d', 'docker compose down', 'docker compose logs -f api', 'docker image prune -f', 'docker rm old-container', 'docker rmi app:old', 'docker stop api', 'docker exec -it db psql -U postgres', 'docker logs --tail 100 api',
    'docker volume ls', 'docker network ls', 'docker inspect api', 'docker pull postgres:16', 'docker tag app me/app:1.0', 'podman run --rm alpine echo hi', 'podman ps', 'nerdctl images', 'docker run --rm -v ./data:/data alpine ls /data', 'docker system df',
  ]) ok(l);
};
