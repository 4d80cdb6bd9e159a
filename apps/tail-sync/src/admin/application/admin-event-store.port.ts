/** Token of the event store as the admin queries read it (the process's one store). */
export const ADMIN_EVENT_STORE = Symbol('ADMIN_EVENT_STORE');
