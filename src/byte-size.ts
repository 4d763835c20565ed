// Sizes of memory as orchestrators write them: Kubernetes (512Mi binary, 512M decimal), Docker
// (512m binary), or plain bytes.

const UNITS: Record<string, number> = {
  '': 1,
  B: 1,
  k: 1024,
  m: 1024 ** 2,
  g: 1024 ** 3,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  KB: 1e3,
  MB: 1e6,
  GB: 1e9,
};

/** `512Mi` → 536870912; throws a RangeError that says which forms are taken. */
export function parseByteSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*$/.exec(text);
  // Own units only: `1toString` would otherwise find Object.prototype's and make NaN.
  const unit = match && Object.hasOwn(UNITS, match[2]!) ? UNITS[match[2]!] : undefined;
  const bytes = match && unit !== undefined ? Math.floor(Number(match[1]) * unit) : NaN;
  if (!(bytes > 0 && Number.isSafeInteger(bytes)))
    throw new RangeError('is not a memory size; write one such as 512Mi, 1Gi, 512m (Docker) or 536870912');
  return bytes;
}
