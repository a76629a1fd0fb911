import { describe, expect, it } from "vitest";
import { Handles, firstWordOf, handleOfAuthor, knownHandles, localPartOf, personOfIssue } from "./people";

const team = new Handles(["lea", "marek", "priya", "tom"]);

describe("the people rules", () => {
  it("takes the first word of a name, lowercased and without accents", () => {
    expect(firstWordOf("Léa Martin")).toBe("lea");
    expect(firstWordOf("  Zoë  van Dijk ")).toBe("zoe");
    expect(firstWordOf("ÅSA Öberg")).toBe("asa");
  });

  it("takes an email's local part, lowercased", () => {
    expect(localPartOf("Priya@harbor.test")).toBe("priya");
    expect(localPartOf("no-at-sign")).toBe("");
  });

  it("maps the name .mailmap gave an author when it is a handle, before anything else", () => {
    // .mailmap gave the name "tom" to a commit written as someone else entirely.
    expect(handleOfAuthor({ name: "tom", email: "marek@harbor.test" }, team)).toEqual({ handle: "tom", by: "mailmap" });
  });

  it("maps an author by the email's local part, case-insensitive, before the first name", () => {
    expect(handleOfAuthor({ name: "Tom Okafor", email: "Priya@harbor.test" }, team)).toEqual({ handle: "priya", by: "email" });
  });

  it("maps an author by the first word of the name when the email says nothing", () => {
    expect(handleOfAuthor({ name: "Léa Martin", email: "l.martin@home.example" }, team)).toEqual({ handle: "lea", by: "first-name" });
  });

  it("keeps an author who maps to no handle as a person of their own, named as git names them", () => {
    expect(handleOfAuthor({ name: "Ana Sousa", email: "ana@harbor.test" }, team)).toEqual({ handle: "Ana Sousa", by: "unmapped" });
  });

  it("gives an issue to its owner, and an unowned one to whoever started it", () => {
    expect(personOfIssue({ id: "BK-1", owner: "Marek" }, team)).toBe("marek");
    expect(personOfIssue({ id: "BK-2", owner: "", startedBy: "priya" }, team)).toBe("priya");
    expect(personOfIssue({ id: "BK-3", owner: "", startedBy: "zed" }, team)).toBe("zed");
    expect(personOfIssue({ id: "BK-4", owner: "" }, team)).toBeNull();
  });

  it("takes handles from owners and the ledger's users, not from the Cockpit's own tool name", () => {
    const h = knownHandles(["lea", ""], ["cockpit/0.9.0", "sam"]);
    expect(h.find("SAM")).toBe("sam");
    expect(h.find("lea")).toBe("lea");
    expect(h.find("cockpit/0.9.0")).toBeUndefined();
  });
});
