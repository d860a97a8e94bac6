export * from './account';
export * from './plans';
export * from './problem';
export * from './config';
