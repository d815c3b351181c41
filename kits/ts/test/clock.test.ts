/** The batch clock (src/clock.ts): a batch is charged its wait and its work, not the kit's excluded work. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BatchClock } from "../src/clock.js";

/** Spends about `ms` milliseconds of CPU on this thread. */
function burn(ms: number): void {
  const start = process.cpuUsage();
  for (let used = process.cpuUsage(start); (used.user + used.system) / 1000 < ms; used = process.cpuUsage(start)) {
    // spin: every iteration reads the clock, which is work enough
  }
}

const MS = 1e6; // nanoseconds

test("work since the wait began is charged, excluded work is not", () => {
  const cases: { name: string; charged: number; excluded: number }[] = [
    { name: "charged work only", charged: 30, excluded: 0 },
    { name: "excluded work only", charged: 0, excluded: 30 },
    { name: "both", charged: 30, excluded: 30 },
  ];
  for (const c of cases) {
    const clock = new BatchClock();
    clock.wait();
    burn(c.charged);
    const result = clock.exclude(() => {
      burn(c.excluded);
      return "framed";
    });
    assert.equal(result, "framed", c.name);
    const got = clock.charged();
    assert.ok(got >= c.charged * MS * 0.9 && got < (c.charged + 15) * MS, `${c.name}: charged ${got / MS} ms`);
  }
});

test("wait starts a new batch: what came before it is not charged", () => {
  const clock = new BatchClock();
  burn(30);
  clock.exclude(() => burn(5));
  clock.wait();
  const got = clock.charged();
  assert.ok(got >= 1 && got < 10 * MS, `charged ${got / MS} ms after the wait began`);
});

test("work that throws is still excluded", () => {
  const clock = new BatchClock();
  clock.wait();
  assert.throws(() =>
    clock.exclude(() => {
      burn(30);
      throw new Error("bad frame");
    }),
  );
  assert.ok(clock.charged() < 15 * MS, `charged ${clock.charged() / MS} ms`);
});
