import { describe, expect, it } from "vitest";
import { SEALED_FROM } from "./constants";
import { isProven } from "./derive";
import { sealOf } from "./seal";
import { OLD, T1, findingsOf, issueIn, makeIssue, makeMilestone, planOf, sealedStamps } from "@/tests/support/records";

const M1 = makeMilestone({ id: "M1" });

describe("§1.7 seal test vectors (issue I0001, stamp 2026-09-20T10:00:00Z)", () => {
  const stamp = "2026-09-20T10:00:00Z";

  it("plan_start seals to sha256:623a33f9…", () => {
    expect(sealOf("plan_start", "I0001", stamp)).toBe(
      "sha256:623a33f9484de48759f9ad20781f12aa68ad09636bb0f7ae8c846765830ae857",
    );
  });

  it("plan_verify seals to sha256:b6300b57…", () => {
    expect(sealOf("plan_verify", "I0001", stamp)).toBe(
      "sha256:b6300b574b0ce4a158f249335838998b6c8675d12c53b9d777da6046ad06d866",
    );
  });

  it("plan_done seals to sha256:ed3af578…", () => {
    expect(sealOf("plan_done", "I0001", stamp)).toBe(
      "sha256:ed3af5784d37dea81bd5294f07a1a5aa9dd3679a9e05f3f27c015bce34beba1c",
    );
  });
});

describe("§1.7 SEALED_FROM", () => {
  it("is the newest value, 2026-10-01T00:00:00Z", () => {
    expect(SEALED_FROM).toBe("2026-10-01T00:00:00Z");
  });
});

describe("§2.2 proven stamps", () => {
  it("an empty stamp is proven (rule 1)", () => {
    const issue = makeIssue({ id: "I0001" });
    expect(isProven(issue, "start")).toBe(true);
    expect(isProven(issue, "verify")).toBe(true);
    expect(isProven(issue, "done")).toBe(true);
  });

  it("a stamp whose seal field seals it exactly is proven (rule 2), even after SEALED_FROM", () => {
    const issue = makeIssue({ id: "I0001", ...sealedStamps("I0001", { start: T1, verify: T1, done: T1 }) });
    expect(isProven(issue, "start")).toBe(true);
    expect(isProven(issue, "verify")).toBe(true);
    expect(isProven(issue, "done")).toBe(true);
  });

  it("a stamp without a seal, after SEALED_FROM, is not proven", () => {
    const issue = makeIssue({ id: "I0001", started_at: T1 });
    expect(isProven(issue, "start")).toBe(false);
  });

  it("a seal of another event, another issue or another stamp does not prove the stamp", () => {
    expect(isProven(makeIssue({ id: "I0001", started_at: T1, started_event: sealOf("plan_done", "I0001", T1) }), "start")).toBe(false);
    expect(isProven(makeIssue({ id: "I0001", started_at: T1, started_event: sealOf("plan_start", "I0002", T1) }), "start")).toBe(false);
    expect(
      isProven(makeIssue({ id: "I0001", started_at: T1, started_event: sealOf("plan_start", "I0001", OLD) }), "start"),
    ).toBe(false);
    // the verify seal written into the start seal field proves nothing
    expect(
      isProven(makeIssue({ id: "I0001", verified_at: T1, started_event: sealOf("plan_verify", "I0001", T1) }), "verify"),
    ).toBe(false);
  });

  it("a stamp before SEALED_FROM listed as \"<field> <stamp>\" in unsealed_stamps is proven (rule 3)", () => {
    const issue = makeIssue({
      id: "I0001",
      started_at: OLD,
      verified_at: OLD,
      completed_at: OLD,
      unsealed_stamps: [`started_at ${OLD}`, `verified_at ${OLD}`, `completed_at ${OLD}`],
    });
    expect(isProven(issue, "start")).toBe(true);
    expect(isProven(issue, "verify")).toBe(true);
    expect(isProven(issue, "done")).toBe(true);
  });

  it("a stamp before SEALED_FROM that is not listed (or listed under another field) is not proven", () => {
    expect(isProven(makeIssue({ id: "I0001", started_at: OLD }), "start")).toBe(false);
    expect(
      isProven(makeIssue({ id: "I0001", started_at: OLD, unsealed_stamps: [`verified_at ${OLD}`] }), "start"),
    ).toBe(false);
    expect(
      isProven(makeIssue({ id: "I0001", started_at: OLD, unsealed_stamps: [`started_at  ${OLD}`] }), "start"),
    ).toBe(false);
  });

  it("a stamp listed at exactly SEALED_FROM is not proven (test 581)", () => {
    const issue = makeIssue({
      id: "I0001",
      started_at: "2026-10-01T00:00:00Z",
      unsealed_stamps: ["started_at 2026-10-01T00:00:00Z"],
    });
    expect(isProven(issue, "start")).toBe(false);
    const plan = planOf([M1], [issue]);
    expect(issueIn(plan, "I0001").status).toBe("READY");
    expect(findingsOf(plan, "stamp_without_event")).toHaveLength(1);
  });

  it("a stamp listed one second before SEALED_FROM is proven", () => {
    const issue = makeIssue({
      id: "I0001",
      started_at: "2026-09-30T23:59:59Z",
      unsealed_stamps: ["started_at 2026-09-30T23:59:59Z"],
    });
    expect(isProven(issue, "start")).toBe(true);
    expect(issueIn(planOf([M1], [issue]), "I0001").status).toBe("ACTIVE");
  });

  it("only stamped (non-empty and proven) stamps influence status; the raw stamp is still reported", () => {
    const plan = planOf([M1], [makeIssue({ id: "I0001", started_at: T1, started_event: "sha256:forged" })]);
    const issue = issueIn(plan, "I0001");
    expect(issue.status).toBe("READY");
    expect(issue.started_at).toBe(T1);
  });

  it("a sealed stamp makes the move count", () => {
    const plan = planOf([M1], [makeIssue({ id: "I0001", ...sealedStamps("I0001", { start: T1 }) })]);
    expect(issueIn(plan, "I0001").status).toBe("ACTIVE");
    expect(findingsOf(plan, "stamp_without_event")).toEqual([]);
  });
});
