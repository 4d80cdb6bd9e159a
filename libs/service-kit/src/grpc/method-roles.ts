import { PROTO_PACKAGE } from '@tailsync/contracts';
import type { CallerRole } from './caller-token';

/** The methods a generated service definition names (its index signature left out). */
type MethodName<Definition> = keyof { [M in keyof Definition as string extends M ? never : M]: unknown } & string;

/** The roles each method of a service takes: every method of its `.proto` named, so a new method must say. */
export type MethodRoles<Definition> = { readonly [M in MethodName<Definition>]: readonly CallerRole[] };

/** A service's roles table by the path a call names (`/tailsync.v1.TailSync/GetTail`). */
export class RolesByPath {
  private readonly byPath: Map<string, ReadonlySet<CallerRole>>;

  constructor(service: string, roles: Readonly<Record<string, readonly CallerRole[]>>) {
    this.byPath = new Map(Object.entries(roles).map(([method, taken]) => [`/${PROTO_PACKAGE}.${service}/${method}`, new Set(taken)]));
  }

  /** Whether the method at `path` takes `role`; a method the table does not name takes none. */
  takes(path: string, role: CallerRole): boolean {
    return this.byPath.get(path)?.has(role) ?? false;
  }
}
