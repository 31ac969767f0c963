export * from './version-board.port';
export * from './memory-version-board';
export * from './redis-version-board';
export * from './announce-version';
