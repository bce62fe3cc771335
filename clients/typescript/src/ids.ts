// Unpredictable request ids for idempotent retries.

/** 128 random bits as 32 hex digits, from the platform's CSPRNG (Node >= 20 and browsers). */
export function newRequestId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
