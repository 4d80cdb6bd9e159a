import { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes, type AclEntry } from 'kafkajs';
import type { AclFilter, DescribedAcls } from './kafkajs-cluster';

/** One ACL: a right of a principal on a resource. */
export type Binding = Pick<AclEntry, 'resourceType' | 'resourceName' | 'resourcePatternType' | 'principal' | 'host' | 'operation' | 'permissionType'>;

/** Two bindings with the same key are the same ACL. */
export const bindingKey = (b: Binding) => [b.resourceType, b.resourceName, b.resourcePatternType, b.principal, b.host, b.operation, b.permissionType].join('|');

/** Every ACL of one user, as a DescribeAcls filter (no resource name or host: any). */
export function everyAclOf(username: string): AclFilter {
  return {
    resourceType: AclResourceTypes.ANY,
    resourcePatternType: ResourcePatternTypes.ANY,
    principal: `User:${username}`,
    operation: AclOperationTypes.ANY,
    permissionType: AclPermissionTypes.ANY,
  };
}

/** A DescribeAcls answer as bindings. */
export function bindingsIn(described: DescribedAcls): Binding[] {
  return described.resources.flatMap((resource) =>
    resource.acls.map((acl) => ({ resourceType: resource.resourceType, resourceName: resource.resourceName, resourcePatternType: resource.resourcePatternType, ...acl }) as Binding),
  );
}
