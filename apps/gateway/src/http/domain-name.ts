/** A domain's name, as every endpoint that takes one validates it (the admin API, accounts, the JWK Set). */
export const DOMAIN_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const DOMAIN_MESSAGE = 'Domain must be 1 to 63 lowercase letters, digits or hyphens, starting with a letter or digit.';
