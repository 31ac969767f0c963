export * from './intention.fixture';
