import { openPrismaClient, type ServiceDatabase } from '@igw/persistence';
import { PrismaClient } from './generated/client';

export const GATEWAY_PRISMA = Symbol('GATEWAY_PRISMA');
export const GATEWAY_DB = Symbol('GATEWAY_DB');
export const GATEWAY_SCHEMA = 'api_gateway';
export type GatewayPrisma = PrismaClient;

export const createGatewayPrisma = (db: ServiceDatabase): Promise<GatewayPrisma> => openPrismaClient(db, PrismaClient);
