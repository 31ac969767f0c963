// class-transformer keeps its metadata (@Type, @Transform, @Expose) in this module and exports no types for it.
declare module 'class-transformer/cjs/storage' {
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
  export const defaultMetadataStorage: MetadataStorage;
}
