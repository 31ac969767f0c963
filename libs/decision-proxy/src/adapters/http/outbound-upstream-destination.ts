import { destinationProblem, type DestinationOptions } from '@igw/http';
import type { UpstreamDestinationCheck } from '../../application/ports/upstream-destination.port';

/** The shared outbound guard (as webhooks): IP literals must be public, names must resolve to public addresses only. */
export class OutboundUpstreamDestination implements UpstreamDestinationCheck {
  constructor(private readonly options: DestinationOptions) {}

  problem(url: string): Promise<string | null> {
    return destinationProblem(url, this.options, 'url');
  }
}
