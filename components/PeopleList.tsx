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
    // An answer to an older keystroke is dropped when it lands, not cut off in flight: the
    // question is small, and a cut request reads as a failure in the browser's log.
    let current = true;
    const timer = setTimeout(() => {
      fetch(`/api/palette?q=${encodeURIComponent(q.slice(0, 200))}`)
        .then((r) => (r.ok ? (r.json() as Promise<{ people?: unknown }>) : { people: [] }))
        .then((answer) => {
          if (current) setPeople(Array.isArray(answer.people) ? answer.people.filter((p): p is string => typeof p === "string") : []);
        })
        .catch(() => undefined);
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
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
