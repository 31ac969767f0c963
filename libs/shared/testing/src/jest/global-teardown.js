// Integration-test globalTeardown: stops only what global-setup.js started itself (globals set
// there are visible here; both run in Jest's parent process).
'use strict';

module.exports = async function globalTeardown() {
  const broker = globalThis.__IGW_INT_KAFKA__;
  if (broker) {
    globalThis.__IGW_INT_KAFKA__ = undefined;
    await broker.stop();
  }
  const containers = globalThis.__IGW_INT_CONTAINERS__;
  if (containers) {
    globalThis.__IGW_INT_CONTAINERS__ = undefined;
    await Promise.allSettled(containers.map((c) => c.stop()));
  }
};
