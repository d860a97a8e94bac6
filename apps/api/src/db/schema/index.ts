export * from './account';
export * from './rate-limit';
export * from './oral-photo';
export * from './medical-records';
export * from './content';
export * from './virtual-consultation';
export * from './appointments';
export * from './membership';
