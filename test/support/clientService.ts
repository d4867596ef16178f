// The packed client (packedClient.ts) beside a live service on a fresh demo chain behind a proxy, with the raw HTTP
// answer of a path to compare the client's with: what the client's tests against a running service start from.
import { request } from "undici";
import { chainBehindProxy, type ChainBehindProxy, type LiveService } from "./liveService.ts";
import { installPackedClient, type ClientModule } from "./packedClient.ts";

export interface ClientService {
  readonly client: ClientModule;
  readonly setup: ChainBehindProxy;
  readonly service: LiveService;
  /** The service's own answer to a GET of `path`, its body parsed. */
  raw(path: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startClientService(): Promise<ClientService> {
  const packed = await installPackedClient();
  const setup = await chainBehindProxy().catch((error: unknown) => {
    packed.remove();
    throw error;
  });
  const service = await setup.serve({ webSocket: true });
  return {
    client: packed.module,
    setup,
    service,
    raw: async (path) => {
      const response = await request(`${service.base}${path}`);
      return { status: response.statusCode, body: (await response.body.json()) as any };
    },
    close: async () => {
      await setup.close();
      packed.remove();
    },
  };
}
