export * from './api-gateway.module';
export { BootstrapOrgUseCase } from './application/use-cases/bootstrap-org.use-case';
export type { GatewaySettings } from './application/ports/gateway-settings';
export * from './gateway.config';
