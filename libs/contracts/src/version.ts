/** The interface version the service reports (docs/contract.md). */
export const API_VERSION = '15.4.9707.25929';
