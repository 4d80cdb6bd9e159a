/** Who is acting: the calling service account's domain and clientId (the mapping source). */
export interface CallerContext {
  domain: string;
  /** clientId of the calling service account: the source of its Mapped IDs and the actor. */
  source: string;
}
