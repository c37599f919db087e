export * from './auth';
export * from './fields';
export * from './rooms';
export * from './appointments';
export * from './config';
export * from './records';
export * from './routes';
