// The client's types are the service's OpenAPI document's: client/src/openapi.ts (committed) is what
// openapi-typescript makes of the document a running service serves at /quoter/openapi.json, regenerated here in
// memory. A route's schema changed without `npm run build:client-types` fails here.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CLIENT_TYPES_FILE, clientTypes, serviceDocument } from "../../scripts/client-types.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { liveService, type LiveService } from "../support/liveService.ts";

let devchain: Devchain;
let service: LiveService;
before(async () => {
  devchain = await startDevchain();
  service = await liveService({ rpc: devchain.endpoint.url });
});
after(async () => {
  await service?.close();
  await devchain?.close();
});

test("client/src/openapi.ts is what the served document gives (run npm run build:client-types when it is not)", async () => {
  const served = await service.get("/quoter/openapi.json");
  assert.equal(served.status, 200);
  assert.equal(await clientTypes(served.body), readFileSync(CLIENT_TYPES_FILE, "utf8"));
});

test("the script's chainless document is the served one, and a changed schema changes the types", async () => {
  const chainless = await serviceDocument();
  const served = (await service.get("/quoter/openapi.json")).body;
  assert.deepEqual(chainless, served);
  // The comparison above can fail: a field the quote's answer gains is a different module.
  const changed = structuredClone(served);
  const ok = changed.paths["/quoter/{chainId}/{marketAddress}/{marketId}"].get.responses["200"].content["application/json"].schema;
  ok.properties.feeTier = { type: "string" };
  const types = await clientTypes(changed);
  assert.notEqual(types, readFileSync(CLIENT_TYPES_FILE, "utf8"));
  assert.match(types, /feeTier\?: string;/);
});
