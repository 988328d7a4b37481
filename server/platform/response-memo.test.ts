import { describe, expect, it } from "vitest";
import { EncodedJson, negotiateEncoding, ResponseMemo } from "./response-memo";

const json = (n: number) => new EncodedJson(Buffer.alloc(n, "a"));

describe("ResponseMemo", () => {
  it("keeps answers within its byte budget, least recently used out first", async () => {
    const memo = new ResponseMemo(4 * 1300);
    for (const key of ["a", "b", "c"]) await memo.get(key, async () => json(1000));
    await memo.get("a", async () => json(1000)); // a is now the most recent
    await memo.get("d", async () => json(1000));
    await memo.get("e", async () => json(1000));
    expect(memo.usedBytes).toBeLessThanOrEqual(4 * 1300);
    let computed = 0;
    const probe = (key: string) =>
      memo.get(key, async () => {
        computed++;
        return json(1000);
      });
    await probe("a");
    expect(computed).toBe(0);
    await probe("b");
    expect(computed).toBe(1);
  });

  it("computes concurrent misses of one key once, and forgets a failed computation", async () => {
    const memo = new ResponseMemo(1_000_000);
    let computed = 0;
    const produce = async () => {
      computed++;
      await new Promise((r) => setTimeout(r, 5));
      return json(10);
    };
    const answers = await Promise.all([memo.get("k", produce), memo.get("k", produce), memo.get("k", produce)]);
    expect(computed).toBe(1);
    expect(new Set(answers).size).toBe(1);
    await expect(memo.get("bad", async () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    expect((await memo.get("bad", async () => json(3))).json.length).toBe(3);
  });

  it("counts compressed forms towards the budget", async () => {
    const memo = new ResponseMemo(1_000_000);
    const value = await memo.get("k", async () => json(5000));
    const before = memo.usedBytes;
    expect(memo.body("k", value, "br").encoding).toBe("br");
    expect(memo.usedBytes).toBeGreaterThan(before);
  });

  it("is off with a budget of 0", async () => {
    const memo = new ResponseMemo(0);
    let computed = 0;
    for (let i = 0; i < 2; i++)
      await memo.get("k", async () => {
        computed++;
        return json(1);
      });
    expect(computed).toBe(2);
  });
});

describe("negotiateEncoding", () => {
  it("prefers brotli, then gzip, and honours q=0", () => {
    expect(negotiateEncoding(undefined)).toBe("identity");
    expect(negotiateEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(negotiateEncoding("gzip, br;q=0")).toBe("gzip");
    expect(negotiateEncoding("deflate")).toBe("identity");
    expect(negotiateEncoding("*")).toBe("gzip");
    expect(negotiateEncoding("gzip;q=0, identity")).toBe("identity");
  });
});
