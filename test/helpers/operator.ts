import { request } from 'undici';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Calls to the sandbox's operator routes at `baseUrl`: `operator` answers status and JSON, `op` must succeed. */
export function operatorCalls(baseUrl: string) {
  async function operator<T = Record<string, unknown>>(method: Method, path: string, body?: unknown): Promise<{ status: number; json: T }> {
    const res = await request(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, json: (text ? JSON.parse(text) : {}) as T };
  }
  async function op<T = Record<string, unknown>>(method: Method, path: string, body?: unknown): Promise<T> {
    const r = await operator<T>(method, path, body);
    if (r.status !== 200) throw new Error(`${method} ${path} answered ${r.status}: ${JSON.stringify(r.json)}`);
    return r.json;
  }
  return { operator, op };
}
