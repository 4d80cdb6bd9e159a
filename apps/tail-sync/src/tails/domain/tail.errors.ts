/**
 * Rejections of tail commands. `kind` matches the RPC problem kinds (`@tailsync/contracts`),
 * `status` the HTTP status the gateway answers with.
 */
export type TailErrorKind = 'validation' | 'not-found' | 'conflict';

export abstract class TailDomainError extends Error {
  abstract readonly kind: TailErrorKind;
  abstract readonly status: 400 | 404 | 409;
  /** Stable machine-readable code (the class name). */
  abstract readonly code: string;
  /** Messages keyed by field name (validation errors only). */
  readonly fieldErrors: Record<string, string[]> = {};

  protected constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class TailNotFound extends TailDomainError {
  readonly kind = 'not-found' as const;
  readonly status = 404 as const;
  readonly code = 'TailNotFound';

  constructor(readonly mappedId?: string) {
    super(mappedId === undefined ? 'The tail was not found.' : `No tail with Mapped ID "${mappedId}" was found.`);
  }
}

export class TailAlreadyExists extends TailDomainError {
  readonly kind = 'conflict' as const;
  readonly status = 409 as const;
  readonly code = 'TailAlreadyExists';

  constructor(readonly tailId: number) {
    super(`The tail ${tailId} already exists.`);
  }
}

export class TailAlreadyInactive extends TailDomainError {
  readonly kind = 'conflict' as const;
  readonly status = 409 as const;
  readonly code = 'TailAlreadyInactive';

  constructor(readonly tailId: number) {
    super('The tail is already inactive.');
  }
}

export class TailAlreadyActive extends TailDomainError {
  readonly kind = 'conflict' as const;
  readonly status = 409 as const;
  readonly code = 'TailAlreadyActive';

  constructor(readonly tailId: number) {
    super('The tail is already active.');
  }
}

export class TailNumberTaken extends TailDomainError {
  readonly kind = 'conflict' as const;
  readonly status = 409 as const;
  readonly code = 'TailNumberTaken';

  constructor(
    readonly tailNumber: string,
    readonly heldByTailId?: number,
  ) {
    super(`The tail number "${tailNumber}" is already used by another tail.`);
  }
}

/**
 * Create-or-map rule 2 failure: the source already maps the tail under another Mapped ID.
 * A validation failure under the field `tailId` (the Mapped ID field of the request).
 */
export class MappedIdConflict extends TailDomainError {
  readonly kind = 'validation' as const;
  readonly status = 400 as const;
  readonly code = 'MappedIdConflict';
  static readonly field = 'tailId';

  constructor(
    readonly tailId: number,
    readonly mappedId: string,
    readonly existingMappedId: string,
  ) {
    super(
      `The tail with this tail number is already mapped by this service account under another Mapped ID ("${existingMappedId}").`,
    );
    this.fieldErrors[MappedIdConflict.field] = [this.message];
  }
}

/** A tail number that is empty once trimmed. */
export class TailNumberRequired extends TailDomainError {
  readonly kind = 'validation' as const;
  readonly status = 400 as const;
  readonly code = 'TailNumberRequired';

  constructor(readonly field: 'tailNumber' | 'newTailNumber' = 'tailNumber') {
    super('Tail number is required.');
    this.fieldErrors[field] = [this.message];
  }
}

export function isTailDomainError(error: unknown): error is TailDomainError {
  return error instanceof TailDomainError;
}
