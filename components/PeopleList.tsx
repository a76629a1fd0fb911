"use client";

import { useEffect, useState } from "react";

/** The fields whose value is a person: the owner field offers the people the Cockpit knows. */
export const PERSON_FIELDS = new Set(["owner"]);

/**
 * A `<datalist>` of the people the Cockpit knows (owners, users, agents, commit authors: what
 * /people lists) whose name holds `typed`, asked of the palette's look-up as the person types. A
 * new name is still allowed: the list suggests, the field takes any text.
 */
export function PeopleList({ id, typed }: { id: string; typed: string }) {
  const [people, setPeople] = useState<string[]>([]);
  useEffect(() => {
    const q = typed.trim();
    if (q === "") return;
    const asked = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/api/palette?q=${encodeURIComponent(q.slice(0, 200))}`, { signal: asked.signal })
        .then((r) => (r.ok ? (r.json() as Promise<{ people?: unknown }>) : { people: [] }))
        .then((answer) => setPeople(Array.isArray(answer.people) ? answer.people.filter((p): p is string => typeof p === "string") : []))
        .catch(() => undefined);
    }, 150);
    return () => {
      clearTimeout(timer);
      asked.abort();
    };
  }, [typed]);
  return (
    <datalist id={id} data-testid={`${id}-list`}>
      {(typed.trim() === "" ? [] : people).map((p) => (
        <option key={p} value={p} />
      ))}
    </datalist>
  );
}
