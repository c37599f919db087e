export * from './broker';
export * from './http';
export * from './infrastructure';
export * from './mail-catcher';
export * from './messages';
export * from './tokens';
export * from './ports';
export * from './stack';
