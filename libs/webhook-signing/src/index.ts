export * from './claims';
export * from './sign';
export * from './verify';
export * from './express';
export * from './nest';
export * from './secret-box';
