import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, openSync } from 'node:fs';
import { resolve } from 'node:path';
import { accepts, pollUntil, stopChild, stopOnFailure } from './child.js';
import { installDebianPackage } from './debian-package.js';

// HAProxy from Debian's package in front of the Temporal frontends, for `npm run cluster`: the one
// configuration file that docker-compose.yml mounts too (deploy/haproxy/haproxy.cfg), given its
// addresses through the environment.

export const HAPROXY = '/usr/sbin/haproxy';
export const HAPROXY_CONFIG = resolve('deploy/haproxy/haproxy.cfg');

/** Installs Debian's haproxy package where it is missing (CI runs as root on Debian). */
export function ensureHaproxy(log: (line: string) => void): string {
  if (!existsSync(HAPROXY)) installDebianPackage('haproxy', 'HAProxy', log);
  return HAPROXY;
}

export interface RunningLoadBalancer {
  /** Where clients connect, host:port. */
  address: string;
  child: ChildProcess;
  log: string;
  stop(): Promise<void>;
}

/** The environment that deploy/haproxy/haproxy.cfg reads. */
export function loadBalancerEnv(opts: { bind: string; frontends: string[]; tls: boolean }): Record<string, string> {
  if (opts.frontends.length !== 2)
    throw new Error(
      `deploy/haproxy/haproxy.cfg balances two frontends (TEMPORAL_FRONTEND_1 and _2); given ${opts.frontends.length}`,
    );
  return {
    TEMPORAL_LB_BIND: opts.bind,
    TEMPORAL_FRONTEND_1: opts.frontends[0]!,
    TEMPORAL_FRONTEND_2: opts.frontends[1]!,
    ...(opts.tls ? { TEMPORAL_LB_TLS: 'passthrough' } : {}),
  };
}

/**
 * HAProxy on 127.0.0.1:`port` in front of `frontends` (host:port each); resolves once it accepts
 * connections. The configuration is checked first (`haproxy -c`), so a bad one fails naming why.
 */
export async function startLoadBalancer(opts: {
  port: number;
  frontends: string[];
  tls: boolean;
  log: string;
  say: (line: string) => void;
  signal?: AbortSignal;
}): Promise<RunningLoadBalancer> {
  const haproxy = ensureHaproxy(opts.say);
  const address = `127.0.0.1:${opts.port}`;
  const env = {
    PATH: process.env.PATH ?? '',
    ...loadBalancerEnv({ bind: address, frontends: opts.frontends, tls: opts.tls }),
  };
  try {
    execFileSync(haproxy, ['-c', '-q', '-f', HAPROXY_CONFIG], { env, stdio: 'pipe', encoding: 'utf8' });
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string };
    throw new Error(
      `haproxy -c -f ${HAPROXY_CONFIG} refused the configuration: ${(e.stderr || e.stdout || '').trim()}`,
    );
  }
  opts.signal?.throwIfAborted();
  const out = openSync(opts.log, 'a');
  // -W: a master process that stays in the foreground (-db), so that this child is HAProxy itself.
  const child = spawn(haproxy, ['-W', '-db', '-f', HAPROXY_CONFIG], { env, stdio: ['ignore', out, out] });
  const stop = () => stopChild(child, 'SIGTERM', 10_000);
  await stopOnFailure(stop, () =>
    pollUntil(() => accepts(opts.port), {
      timeoutMs: 30_000,
      everyMs: 100,
      signal: opts.signal,
      failed: () =>
        child.exitCode === null ? undefined : new Error(`haproxy exited with ${child.exitCode}; see ${opts.log}`),
      timedOut: () => new Error(`haproxy did not listen on ${address} within 30 s; see ${opts.log}`),
    }),
  );
  return { address, child, log: opts.log, stop };
}
