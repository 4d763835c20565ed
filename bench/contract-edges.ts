import { createServer } from 'node:http';
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { Agent, request } from 'undici';
import { callbackSignature, signatureMatches } from '../src/provider/signing.js';
import { signedHeaders } from './protocol.js';
import { bareTransaction } from './workflows/bare-wallet.js';

// What the provider's contract makes any implementation of the wallet flow do besides Temporal's
// part, in bare code: the wallet created by a signed POST /v2/wallets (§4.1, §5.1) whose callbackUrl
// names the workflow, and each signed callback (§6) verified and signalled to it by a bare
// receiver. With the floor workflow (workflows/bare-wallet.ts), the flow's floor under the contract:
// the product's ingress, provider client and workflows are not in it, the sandbox's work is.

export interface ContractEdges {
  activities: { createWalletBare(name: string): Promise<string> };
  close(): Promise<void>;
}

export async function startContractEdges(opts: {
  sandboxUrl: string;
  apiKey: string;
  secretKey: string;
  client: Client;
}): Promise<ContractEdges> {
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const provided = req.headers['x-api-signature'];
      if (
        !signatureMatches(callbackSignature(opts.secretKey, body), typeof provided === 'string' ? provided : undefined)
      )
        return void res.writeHead(401).end();
      let status: string, workflowId: string;
      try {
        status = (JSON.parse(body.toString('utf8')) as { status: string }).status;
        workflowId = decodeURIComponent((req.url ?? '/').slice(1));
      } catch {
        return void res.writeHead(400).end();
      }
      opts.client.workflow
        .getHandle(workflowId)
        .signal(bareTransaction, status)
        .then(
          () => res.writeHead(200).end(),
          () => res.writeHead(503).end(),
        );
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  return {
    activities: {
      async createWalletBare(name) {
        const workflowId = Context.current().info.workflowExecution?.workflowId;
        if (!workflowId) throw new Error('createWalletBare runs only as a workflow’s activity');
        const body = JSON.stringify({ name, callbackUrl: `${receiverUrl}/${encodeURIComponent(workflowId)}` });
        const url = `${opts.sandboxUrl}/v2/wallets?timestamp=${Date.now()}`;
        const res = await request(url, {
          method: 'POST',
          dispatcher: agent,
          headers: { ...signedHeaders(opts, url, body), 'content-type': 'application/json' },
          body,
        });
        const wallet = (await res.body.json()) as { id?: string };
        if (res.statusCode !== 200 || !wallet.id) throw new Error(`POST /v2/wallets answered ${res.statusCode}`);
        return wallet.id;
      },
    },
    async close() {
      await new Promise<void>((r) => receiver.close(() => r()));
      await agent.close();
    },
  };
}
