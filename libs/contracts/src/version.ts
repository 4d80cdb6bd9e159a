/** The interface version the service reports (interface.md, Versioning). */
export const API_VERSION = '15.4.9707.25929';
