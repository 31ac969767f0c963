export * from './api-gateway.module';
export { BootstrapOrgUseCase } from './application/use-cases/bootstrap-org.use-case';
export type { GatewaySettings } from './application/ports/gateway-settings';
export * from './gateway.config';
export { serveConsole, CONSOLE_SECURITY_HEADERS } from './adapters/console/console.static';
