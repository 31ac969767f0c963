// The mandate JWT is defined once, in the kernel (issuer and verifier share it); contracts re-export it.
export { MANDATE_JWT, type MandateClaims } from '@igw/kernel';
