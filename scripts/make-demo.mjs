#!/usr/bin/env node
// Writes the bundled demo plan: a small team shipping "Harbor Bookings", an appointment-booking
// web product. Usage: node scripts/make-demo.mjs [OUTPUT_DIR]   (default: examples/demo)
//
// The output is deterministic: no clock, no randomness. Running the script twice gives
// byte-identical files (tests/demo.test.ts holds that). Every lifecycle stamp is written with its
// seal, computed with the formula of lib/plan/seal.ts (plan-semantics §1.7):
//   "sha256:" + hex(sha256("majordomus.plan-event/v1\n" + event + "\n" + issueId + "\n" + stamp + "\n"))

import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

// ---------------------------------------------------------------------------------------------
// Seals

const MOVES = [
  { field: "started_at", seal: "started_event", event: "plan_start" },
  { field: "verified_at", seal: "verified_event", event: "plan_verify" },
  { field: "completed_at", seal: "completed_event", event: "plan_done" },
];

export function sealOf(event, issueId, stamp) {
  const input = `majordomus.plan-event/v1\n${event}\n${issueId}\n${stamp}\n`;
  return "sha256:" + createHash("sha256").update(input, "utf8").digest("hex");
}

/** A stable stand-in for the commit an evidence entry was recorded at. */
function commitOf(...parts) {
  return createHash("sha1").update(parts.join("\0"), "utf8").digest("hex");
}

// ---------------------------------------------------------------------------------------------
// A small YAML writer: block mappings and sequences, plain scalars where they read back as the
// same text, double-quoted (JSON) scalars everywhere else.

const RESERVED = /^(?:true|false|yes|no|on|off|null|y|n|~)$/i;
const STAMP_OR_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}Z)?$/;

function scalar(value) {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const s = String(value);
  if (STAMP_OR_DATE.test(s)) return s;
  const plain =
    s !== "" &&
    /^[A-Za-z_./]/.test(s) &&
    !/^\.[0-9]/.test(s) &&
    s === s.trim() &&
    !RESERVED.test(s) &&
    !/[\n\t"\\]/.test(s) &&
    !s.includes(": ") &&
    !s.includes(" #") &&
    !s.endsWith(":") &&
    /^[\x20-\x7e]*$/.test(s);
  return plain ? s : JSON.stringify(s);
}

function emit(record) {
  const lines = [];
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) {
        lines.push(`${key}: []`);
        continue;
      }
      lines.push(`${key}:`);
      for (const item of value) {
        if (item !== null && typeof item === "object") {
          const entries = Object.entries(item).filter(([, v]) => v !== undefined);
          entries.forEach(([k, v], i) => lines.push(`${i === 0 ? "  - " : "    "}${k}: ${scalar(v)}`));
        } else {
          lines.push(`  - ${scalar(item)}`);
        }
      }
    } else {
      lines.push(`${key}: ${scalar(value)}`);
    }
  }
  return lines.join("\n") + "\n";
}

// ---------------------------------------------------------------------------------------------
// The plan

const PROJECT = {
  schema_version: 1,
  name: "Harbor Bookings",
  repository: "harbor-labs/harbor",
  default_branch: "main",
};

const MILESTONES = [
  {
    id: "foundations",
    title: "The monorepo builds, tests and deploys itself",
    slug: "foundations",
    version: "0.1",
    order: 10,
    priority: "p0",
    problem: "Five people are about to write code for a booking product with no shared repository layout, no CI and no place to run it.",
    outcome: "Every pull request is typechecked, linted and tested, and main deploys to a staging environment with a migrated database.",
    scope: ["package.json", "pnpm-workspace.yaml", ".github/workflows", "infra/terraform", "db/migrations"],
    acceptance_criteria: [
      "A pull request that breaks a unit test cannot be merged",
      "A merge to main is live on staging within 15 minutes, database migrations included",
    ],
    validation: ["pnpm -r typecheck", "pnpm -r test", "gh run list --workflow deploy.yml --branch main --limit 5"],
    evidence_required: ["ci_green_on_main", "staging_deploy"],
    depends_on: [],
    risks: ["Terraform state kept locally would let two people apply conflicting plans; state lives in the shared bucket from day one."],
    created_at: "2026-09-28",
    updated_at: "2026-10-09",
    evidence: [
      {
        covers: "ci_green_on_main",
        type: "ci",
        command: "gh run list --workflow ci.yml --branch main --limit 10",
        result: "10 of 10 runs green on main; median duration 4m12s",
        recorded_at: "2026-10-09T10:30:00Z",
      },
      {
        covers: "staging_deploy",
        type: "ci",
        command: "gh run view --workflow deploy.yml --branch main",
        result: "deploy #14 applied 3 migrations and passed the smoke check on https://staging.harbor.test in 6m41s",
        recorded_at: "2026-10-09T10:35:00Z",
      },
    ],
  },
  {
    id: "accounts",
    title: "Businesses sign up, invite their staff and control who sees what",
    slug: "accounts",
    version: "0.2",
    order: 20,
    priority: "p0",
    problem: "Nobody can log in: every screen of the product needs an organisation, a member and a role behind it.",
    outcome: "A salon owner signs up, verifies their email, invites two staff members and gives one of them read-only access.",
    scope: ["apps/api/src/auth", "apps/api/src/orgs", "apps/web/src/app/(auth)", "apps/web/src/app/settings/team"],
    acceptance_criteria: [
      "Sign-up, log-in, log-out and password reset pass end to end on staging",
      "An external security review of the session handling reports no open high-severity finding",
    ],
    validation: ["pnpm --filter web e2e -- accounts", "pnpm --filter api test -- auth orgs"],
    evidence_required: ["e2e_signup_login", "security_review"],
    depends_on: ["foundations"],
    risks: ["The security review is booked with an outside firm; its slot may slip past the v0.2 date."],
    created_at: "2026-09-28",
    updated_at: "2026-11-09",
    evidence: [
      {
        covers: "e2e_signup_login",
        type: "test",
        command: "pnpm --filter web e2e -- accounts",
        result: "14 passed, 0 failed on staging (Chromium and WebKit)",
        recorded_at: "2026-11-09T11:00:00Z",
      },
    ],
  },
  {
    id: "booking",
    title: "Customers book an appointment online in under a minute",
    slug: "booking",
    version: "0.3",
    order: 30,
    priority: "p0",
    problem: "Customers still phone the front desk; staff retype appointments into a paper diary.",
    outcome: "A customer opens the business's booking page, picks a service and a free slot, and gets a confirmation email; the slot disappears for everyone else.",
    scope: ["apps/api/src/catalogue", "apps/api/src/availability", "apps/api/src/slots", "apps/api/src/bookings", "apps/web/src/app/book"],
    acceptance_criteria: [
      "A customer completes a booking on a phone in under 60 seconds in the usability session",
      "200 concurrent bookings against the same staff member never produce an overlap",
    ],
    validation: ["pnpm --filter web e2e -- booking", "k6 run load/k6/concurrent-bookings.js"],
    evidence_required: ["e2e_booking_flow", "load_test_200_concurrent"],
    depends_on: ["foundations"],
    created_at: "2026-09-28",
    updated_at: "2026-11-04",
  },
  {
    id: "calendar-export",
    title: "Staff calendars are exported as nightly ICS files",
    slug: "calendar-export",
    version: "0.3",
    order: 35,
    priority: "p2",
    superseded_by: "booking",
    problem: "Staff want their appointments in Google Calendar and Outlook.",
    outcome: "Each staff member downloads a nightly ICS file of their appointments.",
    acceptance_criteria: ["An ICS file generated at 02:00 UTC imports into Google Calendar and Outlook without errors"],
    validation: ["pnpm --filter api test -- ics-export"],
    evidence_required: ["ics_export_in_production"],
    depends_on: ["foundations"],
    risks: ["A nightly file is up to a day stale; a live subscription feed (BK-020 in booking) replaces this milestone."],
    created_at: "2026-09-30",
    updated_at: "2026-10-15",
  },
  {
    id: "notifications",
    title: "Customers are reminded before their appointment",
    slug: "notifications",
    version: "0.4",
    order: 40,
    priority: "p1",
    problem: "One appointment in eight is a no-show; the businesses we interviewed phone customers the day before by hand.",
    outcome: "Every booking sends a confirmation at once and a reminder 24 hours before, by email and, for customers who opt in, by SMS.",
    scope: ["apps/api/src/notifications", "apps/api/src/jobs", "docs/runbooks"],
    acceptance_criteria: [
      "Reminders go out between 23h45 and 24h15 before the appointment for 99% of bookings over a week on staging",
      "A customer who unsubscribes receives no further reminder",
    ],
    validation: ["pnpm --filter api test -- notifications", "pnpm --filter api run report:delivery -- --days 7"],
    evidence_required: ["delivery_report"],
    depends_on: ["foundations"],
    created_at: "2026-09-30",
    updated_at: "2026-10-20",
  },
  {
    id: "payments",
    title: "Businesses take deposits and pay refunds through Stripe",
    slug: "payments",
    version: "0.5",
    order: 50,
    priority: "p1",
    problem: "No-shows cost the businesses money; several will only switch if they can take a deposit at booking time.",
    outcome: "An owner connects a Stripe account, sets a deposit per service, and customers pay it when they book; cancellations inside the policy window are refunded automatically.",
    scope: ["apps/api/src/payments", "apps/web/src/app/settings/payments", "apps/web/src/app/book"],
    acceptance_criteria: [
      "A deposit is captured and a refund issued end to end in Stripe test mode",
      "The self-assessment questionnaire SAQ A is complete and signed off",
    ],
    validation: ["pnpm --filter web e2e -- payments", "stripe trigger checkout.session.completed"],
    evidence_required: ["stripe_test_mode_e2e", "pci_saq_a"],
    depends_on: ["accounts", "booking"],
    risks: ["Stripe Connect onboarding needs the organisation and role model of accounts to be final; starting earlier means migrating connected accounts."],
    created_at: "2026-09-30",
    updated_at: "2026-10-20",
  },
  {
    id: "mobile-apps",
    title: "Staff manage their day from native iOS and Android apps",
    slug: "mobile-apps",
    version: "1.1",
    order: 70,
    priority: "p3",
    cancelled: true,
    problem: "Staff check their schedule on their phones between appointments.",
    outcome: "Native apps show today's appointments and push a notification for each new booking.",
    acceptance_criteria: ["Both apps pass store review"],
    validation: ["pnpm --filter mobile test"],
    evidence_required: ["store_review_passed"],
    depends_on: ["payments"],
    risks: ["Cancelled on 2026-10-19: the responsive staff calendar covers the interviews' needs; revisit after v1.0."],
    created_at: "2026-09-30",
    updated_at: "2026-10-19",
  },
];

// Issues. `stamps` lists the moves that happened, each sealed when written; `evidence` entries
// are recorded by `plan evidence` (covers, type, command, result, commit, recorded_at).
const ISSUES = [
  // ---- foundations (all DONE)
  {
    id: "BK-001",
    milestone: "foundations",
    title: "Monorepo scaffold with pnpm workspaces, strict TypeScript and ESLint",
    priority: "p0",
    profile: "implementation",
    owner: "marek",
    objective: "Create the workspace layout (apps/web, apps/api, packages/*) with one strict tsconfig base and one lint configuration every package extends.",
    scope: ["package.json", "pnpm-workspace.yaml", "tsconfig.base.json", "eslint.config.mjs"],
    depends_on: [],
    acceptance_criteria: [
      "pnpm install then pnpm -r typecheck succeeds on a clean clone",
      "Every package extends tsconfig.base.json with strict mode on",
    ],
    validation: ["pnpm install --frozen-lockfile", "pnpm -r typecheck", "pnpm -r lint"],
    evidence_required: ["clean_clone_build"],
    stamps: { started_at: "2026-10-01T08:30:00Z", verified_at: "2026-10-01T15:10:00Z", completed_at: "2026-10-01T15:40:00Z" },
    evidence: [
      {
        covers: "clean_clone_build",
        type: "build",
        command: "git clone harbor && pnpm install --frozen-lockfile && pnpm -r typecheck",
        result: "4 packages typechecked in 11.2 s, 0 errors",
        recorded_at: "2026-10-01T15:35:00Z",
      },
    ],
    created_at: "2026-09-28",
  },
  {
    id: "BK-002",
    milestone: "foundations",
    title: "CI runs typecheck, lint and unit tests on every pull request",
    priority: "p0",
    profile: "implementation",
    owner: "marek",
    objective: "A GitHub Actions workflow that runs typecheck, lint and the unit tests of every package on each pull request, and a branch protection rule that requires it.",
    scope: [".github/workflows/ci.yml"],
    depends_on: ["BK-001"],
    acceptance_criteria: [
      "A pull request with a failing test shows a red check and cannot be merged",
      "The workflow finishes in under 6 minutes with a warm cache",
    ],
    validation: ["gh workflow run ci.yml", "gh api repos/harbor-labs/harbor/branches/main/protection"],
    evidence_required: ["ci_blocks_red_pr"],
    stamps: { started_at: "2026-10-02T09:00:00Z", verified_at: "2026-10-02T14:20:00Z", completed_at: "2026-10-02T16:05:00Z" },
    evidence: [
      {
        covers: "ci_blocks_red_pr",
        type: "ci",
        command: "gh pr checks 7",
        result: "PR #7 (deliberately failing test) blocked: 'unit tests' failed, merge button disabled",
        recorded_at: "2026-10-02T15:50:00Z",
      },
    ],
    created_at: "2026-09-28",
  },
  {
    id: "BK-003",
    milestone: "foundations",
    title: "Postgres schema baseline and a forward-only migration runner",
    priority: "p0",
    profile: "implementation",
    owner: "priya",
    objective: "Adopt a migration runner with numbered SQL files, a baseline schema (organisations, users, audit log) and a test database per test worker.",
    scope: ["db/migrations", "apps/api/src/db"],
    depends_on: ["BK-001"],
    acceptance_criteria: [
      "Migrations apply from an empty database and are recorded in schema_migrations",
      "Each API test worker gets an isolated, migrated database",
    ],
    validation: ["pnpm --filter api db:migrate", "pnpm --filter api test -- db"],
    evidence_required: ["migrations_apply_clean", "isolated_test_db"],
    stamps: { started_at: "2026-10-02T09:30:00Z", verified_at: "2026-10-05T11:45:00Z", completed_at: "2026-10-05T13:00:00Z" },
    evidence: [
      {
        covers: "migrations_apply_clean",
        type: "test",
        command: "pnpm --filter api db:reset && pnpm --filter api db:migrate",
        result: "applied 0001_baseline.sql .. 0003_audit_log.sql in 0.4 s",
        recorded_at: "2026-10-05T12:40:00Z",
      },
      {
        covers: "isolated_test_db",
        type: "test",
        command: "pnpm --filter api test -- db --pool=threads --poolOptions.threads.maxThreads=4",
        result: "18 passed; 4 workers used harbor_test_1..4",
        recorded_at: "2026-10-05T12:50:00Z",
      },
    ],
    created_at: "2026-09-28",
  },
  {
    id: "BK-004",
    milestone: "foundations",
    title: "Staging environment deployed from main by Terraform",
    priority: "p0",
    profile: "operations",
    parallel_safe: false,
    owner: "tom",
    objective: "Provision the staging VPC, the Postgres instance and the container service with Terraform, and deploy main on every merge after running migrations.",
    scope: ["infra/terraform", ".github/workflows/deploy.yml"],
    depends_on: ["BK-002", "BK-003"],
    acceptance_criteria: [
      "terraform plan on main shows no drift",
      "A merge to main is serving traffic on staging within 15 minutes",
    ],
    validation: ["terraform -chdir=infra/terraform/staging plan -detailed-exitcode", "curl -fsS https://staging.harbor.test/healthz"],
    evidence_required: ["no_drift", "deploy_under_15_min"],
    stamps: { started_at: "2026-10-06T09:15:00Z", verified_at: "2026-10-08T16:00:00Z", completed_at: "2026-10-09T10:20:00Z" },
    evidence: [
      {
        covers: "no_drift",
        type: "manual",
        command: "terraform -chdir=infra/terraform/staging plan -detailed-exitcode",
        result: "exit 0: No changes. Your infrastructure matches the configuration.",
        recorded_at: "2026-10-09T09:55:00Z",
      },
      {
        covers: "deploy_under_15_min",
        type: "ci",
        command: "gh run view 11893245120",
        result: "merge to healthy on staging in 6m41s",
        recorded_at: "2026-10-09T10:10:00Z",
      },
    ],
    created_at: "2026-09-28",
  },
  {
    id: "BK-005",
    milestone: "foundations",
    title: "Structured JSON logs with a request id on every API line",
    priority: "p1",
    profile: "implementation",
    owner: "lea",
    objective: "Log as JSON with pino, attach a request id to every log line and return it in the x-request-id header so support can find a customer's request.",
    scope: ["apps/api/src/logging", "apps/api/src/server.ts"],
    depends_on: ["BK-001"],
    acceptance_criteria: ["Every log line of a request carries the same request id, which is also returned to the client"],
    validation: ["pnpm --filter api test -- logging"],
    evidence_required: ["request_id_propagated"],
    stamps: { started_at: "2026-10-03T10:00:00Z", completed_at: "2026-10-03T17:30:00Z" },
    evidence: [
      {
        covers: "request_id_propagated",
        type: "test",
        command: "pnpm --filter api test -- logging",
        result: "6 passed, 0 failed",
        recorded_at: "2026-10-03T17:20:00Z",
      },
    ],
    created_at: "2026-09-28",
  },

  // ---- accounts (all DONE; the milestone waits on its security review)
  {
    id: "BK-006",
    milestone: "accounts",
    title: "Email and password sign-up with a verified email address",
    priority: "p0",
    profile: "implementation",
    owner: "priya",
    objective: "Let a business owner create an account with email and password (argon2id), send a verification link, and refuse log-in until the address is verified.",
    scope: ["apps/api/src/auth/signup.ts", "apps/api/src/auth/verify-email.ts", "apps/web/src/app/(auth)/signup"],
    depends_on: ["BK-003"],
    acceptance_criteria: [
      "Passwords are stored as argon2id hashes, never in plain text or logs",
      "An unverified account cannot log in and is told to check its inbox",
    ],
    validation: ["pnpm --filter api test -- auth/signup", "pnpm --filter web e2e -- signup"],
    evidence_required: ["signup_tests", "signup_e2e"],
    stamps: { started_at: "2026-10-06T10:00:00Z", verified_at: "2026-10-08T15:30:00Z", completed_at: "2026-10-09T09:40:00Z" },
    evidence: [
      { covers: "signup_tests", type: "test", command: "pnpm --filter api test -- auth/signup", result: "23 passed, 0 failed", recorded_at: "2026-10-08T15:20:00Z" },
      { covers: "signup_e2e", type: "test", command: "pnpm --filter web e2e -- signup", result: "4 passed on staging", recorded_at: "2026-10-09T09:30:00Z" },
    ],
    created_at: "2026-09-29",
  },
  {
    id: "BK-007",
    milestone: "accounts",
    title: "Sessions with short-lived access tokens and rotating refresh tokens",
    priority: "p0",
    profile: "implementation",
    owner: "priya",
    objective: "Issue 15-minute access tokens and rotating refresh tokens in an httpOnly cookie; reusing a rotated refresh token revokes the whole session family.",
    scope: ["apps/api/src/auth/sessions.ts", "apps/api/src/auth/middleware.ts"],
    depends_on: ["BK-006"],
    acceptance_criteria: [
      "A replayed refresh token revokes every session of that family",
      "Log-out invalidates the refresh token server side",
    ],
    validation: ["pnpm --filter api test -- auth/sessions"],
    evidence_required: ["refresh_reuse_detected"],
    stamps: { started_at: "2026-10-12T09:00:00Z", verified_at: "2026-10-14T17:10:00Z", completed_at: "2026-10-15T10:00:00Z" },
    evidence: [
      {
        covers: "refresh_reuse_detected",
        type: "test",
        command: "pnpm --filter api test -- auth/sessions",
        result: "31 passed, 0 failed, including replay-revokes-family",
        recorded_at: "2026-10-14T17:00:00Z",
      },
    ],
    created_at: "2026-09-29",
  },
  {
    id: "BK-008",
    milestone: "accounts",
    title: "Password reset by a one-time link that expires after 30 minutes",
    priority: "p1",
    profile: "implementation",
    owner: "lea",
    objective: "Send a single-use reset link, expire it after 30 minutes, and end every open session when the password changes.",
    scope: ["apps/api/src/auth/password-reset.ts", "apps/web/src/app/(auth)/reset"],
    depends_on: ["BK-006"],
    acceptance_criteria: [
      "A reset link works once and never after 30 minutes",
      "The response does not reveal whether an email address has an account",
    ],
    validation: ["pnpm --filter api test -- auth/password-reset"],
    evidence_required: ["reset_tests"],
    stamps: { started_at: "2026-10-12T13:00:00Z", verified_at: "2026-10-13T16:45:00Z", completed_at: "2026-10-14T09:20:00Z" },
    evidence: [
      { covers: "reset_tests", type: "test", command: "pnpm --filter api test -- auth/password-reset", result: "12 passed, 0 failed", recorded_at: "2026-10-13T16:40:00Z" },
    ],
    created_at: "2026-09-29",
  },
  {
    id: "BK-009",
    milestone: "accounts",
    title: "Organisation workspaces and member invitations",
    priority: "p0",
    profile: "implementation",
    owner: "marek",
    objective: "Every account belongs to an organisation; an owner invites staff by email and an invitation expires after 7 days.",
    scope: ["apps/api/src/orgs", "apps/web/src/app/settings/team", "db/migrations"],
    depends_on: ["BK-007"],
    acceptance_criteria: [
      "An invited person joins the inviting organisation and no other",
      "Data of one organisation is never returned to a member of another (tenant isolation test)",
    ],
    validation: ["pnpm --filter api test -- orgs", "pnpm --filter api test -- tenant-isolation"],
    evidence_required: ["invite_flow", "tenant_isolation"],
    stamps: { started_at: "2026-10-15T10:30:00Z", verified_at: "2026-10-21T15:00:00Z", completed_at: "2026-10-22T11:15:00Z" },
    evidence: [
      { covers: "invite_flow", type: "test", command: "pnpm --filter web e2e -- invitations", result: "5 passed on staging", recorded_at: "2026-10-21T14:40:00Z" },
      {
        covers: "tenant_isolation",
        type: "test",
        command: "pnpm --filter api test -- tenant-isolation",
        result: "every one of 42 list and read endpoints refuses a foreign organisation id",
        recorded_at: "2026-10-22T11:00:00Z",
      },
    ],
    created_at: "2026-09-29",
  },
  {
    id: "BK-010",
    milestone: "accounts",
    title: "Roles: owner, staff and viewer, enforced on every endpoint",
    priority: "p0",
    profile: "implementation",
    owner: "marek",
    objective: "Attach a role to each membership and check it in one authorisation layer, so a viewer can read the calendar but change nothing.",
    scope: ["apps/api/src/auth/authorize.ts", "apps/api/src/orgs/roles.ts"],
    depends_on: ["BK-009"],
    acceptance_criteria: [
      "Every mutating endpoint declares the roles it admits, and a test fails if one does not",
      "A viewer gets 403 on every mutating endpoint",
    ],
    validation: ["pnpm --filter api test -- authorize"],
    evidence_required: ["role_matrix_test"],
    stamps: { started_at: "2026-11-05T13:00:00Z", verified_at: "2026-11-08T16:20:00Z", completed_at: "2026-11-09T09:50:00Z" },
    evidence: [
      {
        covers: "role_matrix_test",
        type: "test",
        command: "pnpm --filter api test -- authorize",
        result: "3 roles x 57 endpoints checked, 0 unexpected grants",
        recorded_at: "2026-11-08T16:10:00Z",
      },
    ],
    created_at: "2026-09-29",
  },

  // ---- booking (ACTIVE)
  {
    id: "BK-011",
    milestone: "booking",
    title: "Service catalogue with duration, price and buffer time",
    priority: "p0",
    profile: "implementation",
    owner: "lea",
    objective: "Owners define the services they offer (name, duration, price, buffer before and after) and which staff members perform each.",
    scope: ["apps/api/src/catalogue", "apps/web/src/app/settings/services"],
    depends_on: ["BK-003"],
    acceptance_criteria: [
      "A service with a 10-minute buffer blocks 10 minutes after each appointment",
      "Archiving a service keeps its past bookings intact",
    ],
    validation: ["pnpm --filter api test -- catalogue"],
    evidence_required: ["catalogue_tests"],
    stamps: { started_at: "2026-10-07T09:00:00Z", verified_at: "2026-10-10T15:00:00Z", completed_at: "2026-10-12T10:00:00Z" },
    evidence: [
      { covers: "catalogue_tests", type: "test", command: "pnpm --filter api test -- catalogue", result: "19 passed, 0 failed", recorded_at: "2026-10-10T14:50:00Z" },
    ],
    created_at: "2026-09-30",
  },
  {
    id: "BK-012",
    milestone: "booking",
    title: "Staff working hours, breaks and time off",
    priority: "p0",
    profile: "implementation",
    owner: "lea",
    objective: "Store weekly working hours per staff member, recurring breaks and one-off time off, each in the business's own time zone.",
    scope: ["apps/api/src/availability", "apps/web/src/app/settings/availability", "db/migrations"],
    depends_on: ["BK-011"],
    acceptance_criteria: [
      "Working hours are stored in the business's IANA time zone, not in UTC offsets",
      "Time off overrides working hours for its whole span",
    ],
    validation: ["pnpm --filter api test -- availability"],
    evidence_required: ["availability_tests"],
    stamps: { started_at: "2026-10-13T09:30:00Z", verified_at: "2026-10-20T14:00:00Z", completed_at: "2026-10-21T10:30:00Z" },
    evidence: [
      { covers: "availability_tests", type: "test", command: "pnpm --filter api test -- availability", result: "27 passed, 0 failed", recorded_at: "2026-10-20T13:45:00Z" },
    ],
    created_at: "2026-09-30",
  },
  {
    id: "BK-013",
    milestone: "booking",
    title: "Slot engine that stays correct across daylight-saving changes",
    priority: "p0",
    profile: "implementation",
    parallel_safe: false,
    owner: "priya",
    objective: "Compute the bookable slots of a service for a date range from working hours, breaks, time off, existing bookings and buffers, correctly on the days clocks change.",
    scope: ["apps/api/src/slots"],
    depends_on: ["BK-012"],
    acceptance_criteria: [
      "Property tests over random schedules never offer a slot that overlaps a booking or a break",
      "On 2026-10-25 (Europe/Berlin) and 2026-11-01 (America/New_York) no slot is offered twice or skipped",
      "Slots for a 30-day range compute in under 50 ms at the 95th percentile",
    ],
    validation: ["pnpm --filter api test -- slots", "pnpm --filter api bench -- slots"],
    evidence_required: ["slot_property_tests", "dst_cases", "slot_latency"],
    stamps: { started_at: "2026-10-22T09:15:00Z", verified_at: "2026-11-02T09:15:00Z" },
    evidence: [
      {
        covers: "slot_property_tests",
        type: "test",
        command: "pnpm --filter api test -- slots --seed 20261102",
        result: "10,000 generated schedules, 0 overlaps",
        recorded_at: "2026-11-02T09:05:00Z",
      },
      {
        covers: "dst_cases",
        type: "test",
        command: "pnpm --filter api test -- slots/dst",
        result: "8 passed: Europe/Berlin, America/New_York, Australia/Sydney, Asia/Kolkata",
        recorded_at: "2026-11-02T09:10:00Z",
      },
    ],
    created_at: "2026-09-30",
  },
  {
    id: "BK-014",
    milestone: "booking",
    title: "Public booking page: pick a service, a slot and confirm",
    priority: "p0",
    profile: "implementation",
    owner: "tom",
    objective: "A mobile-first page at /book/<business> that lists services, shows the next free slots from the slot engine and books one with name, email and phone.",
    scope: ["apps/web/src/app/book", "packages/ui/src/slot-picker"],
    depends_on: ["BK-013"],
    acceptance_criteria: [
      "A first-time customer books on a phone in under 60 seconds in the usability session",
      "The page scores at least 90 for accessibility in Lighthouse",
    ],
    validation: ["pnpm --filter web e2e -- booking", "pnpm --filter web lighthouse -- /book/demo-salon"],
    evidence_required: ["booking_e2e", "lighthouse_a11y"],
    created_at: "2026-09-30",
  },
  {
    id: "BK-015",
    milestone: "booking",
    title: "Customers confirm, cancel and view their booking from a signed link",
    priority: "p0",
    profile: "implementation",
    owner: "marek",
    objective: "Every booking gets a signed manage link; through it the customer sees the appointment and can cancel it until the business's cancellation deadline.",
    scope: ["apps/api/src/bookings", "apps/web/src/app/manage-booking"],
    depends_on: ["BK-012"],
    acceptance_criteria: [
      "A tampered or expired link shows an error and reveals nothing about the booking",
      "Cancelling frees the slot immediately for other customers",
    ],
    validation: ["pnpm --filter api test -- bookings/manage", "pnpm --filter web e2e -- manage-booking"],
    evidence_required: ["manage_link_tests", "cancel_frees_slot"],
    stamps: { started_at: "2026-11-04T10:05:00Z" },
    created_at: "2026-09-30",
  },
  {
    id: "BK-016",
    milestone: "booking",
    title: "Intake questions on the booking form",
    priority: "p2",
    profile: "implementation",
    owner: "tom",
    objective: "Owners add up to five questions per service (e.g. allergies for a colourist) and the answers are stored with the booking and shown to staff.",
    scope: ["apps/api/src/bookings/intake.ts", "apps/web/src/app/settings/services/intake"],
    depends_on: ["BK-012"],
    acceptance_criteria: [
      "Required questions block the booking until answered",
      "Answers are visible to the assigned staff member and to owners only",
    ],
    validation: ["pnpm --filter api test -- bookings/intake"],
    evidence_required: ["intake_tests"],
    created_at: "2026-10-14",
  },
  {
    id: "BK-017",
    milestone: "booking",
    title: "No double booking: an exclusion constraint on staff time ranges",
    priority: "p0",
    profile: "implementation",
    parallel_safe: false,
    owner: "priya",
    objective: "Make an overlapping booking impossible in the database itself with a tstzrange exclusion constraint per staff member, and turn its violation into a friendly 409.",
    scope: ["db/migrations/0009_bookings_no_overlap.sql", "apps/api/src/bookings/create.ts"],
    depends_on: ["BK-012"],
    acceptance_criteria: [
      "The migration applies to a copy of staging data without locking the table for more than 1 s",
      "Two simultaneous requests for the same slot yield one booking and one 409",
    ],
    validation: ["pnpm --filter api test -- bookings/create", "pnpm --filter api test:race -- bookings"],
    evidence_required: ["migration_on_staging_copy", "race_test"],
    stamps: { started_at: "2026-10-23T09:00:00Z", verified_at: "2026-10-30T16:00:00Z", completed_at: "2026-11-03T11:20:00Z" },
    evidence: [
      {
        covers: "migration_on_staging_copy",
        type: "manual",
        command: "psql $STAGING_COPY_URL -f db/migrations/0009_bookings_no_overlap.sql",
        result: "applied in 0.31 s on 48,212 bookings; longest lock 0.12 s",
        recorded_at: "2026-10-30T15:40:00Z",
      },
    ],
    created_at: "2026-09-30",
  },
  {
    id: "BK-018",
    milestone: "booking",
    title: "Staff week view of their appointments",
    priority: "p1",
    profile: "implementation",
    owner: "tom",
    objective: "Staff see their week as a calendar with appointments, breaks and time off, and open any appointment for its details and intake answers.",
    scope: ["apps/web/src/app/(dashboard)/calendar", "packages/ui/src/week-view"],
    depends_on: ["BK-013"],
    acceptance_criteria: [
      "The week view renders 200 appointments without dropping below 50 fps on a mid-range laptop",
      "Appointments show in the business's time zone whatever the browser's zone",
    ],
    validation: ["pnpm --filter web test -- week-view", "pnpm --filter web e2e -- calendar"],
    evidence_required: ["week_view_e2e"],
    created_at: "2026-09-30",
  },
  {
    id: "BK-019",
    milestone: "booking",
    title: "Drag-and-drop rescheduling in the staff week view",
    priority: "p2",
    profile: "implementation",
    cancelled: true,
    owner: "tom",
    objective: "Staff move an appointment by dragging it to another free slot; the customer is notified of the new time.",
    why: "Cancelled 2026-10-27: in testing, staff preferred rescheduling from the appointment details; dragging on touch screens moved appointments by accident.",
    scope: ["apps/web/src/app/(dashboard)/calendar", "packages/ui/src/week-view"],
    depends_on: ["BK-018"],
    acceptance_criteria: ["A dragged appointment lands only on a free slot, or snaps back"],
    validation: ["pnpm --filter web e2e -- calendar-dnd"],
    evidence_required: ["dnd_e2e"],
    created_at: "2026-09-30",
    updated_at: "2026-10-27",
  },
  {
    id: "BK-020",
    milestone: "booking",
    title: "Live calendar feed: a private ICS subscription URL per staff member",
    priority: "p1",
    profile: "implementation",
    owner: "lea",
    objective: "Serve each staff member's appointments as an ICS feed at a secret URL that Google Calendar and Outlook subscribe to, replacing the nightly export of calendar-export.",
    scope: ["apps/api/src/calendar", "apps/web/src/app/settings/calendar"],
    depends_on: ["BK-012", "BK-022"],
    acceptance_criteria: [
      "Google Calendar and Outlook subscribe to the feed and show new bookings within their refresh interval",
      "Regenerating the secret URL stops the old one immediately",
    ],
    validation: ["pnpm --filter api test -- calendar/feed", "npx ical-validator https://staging.harbor.test/cal/demo.ics"],
    evidence_required: ["feed_validates", "secret_rotation"],
    created_at: "2026-10-15",
  },
  {
    id: "BK-021",
    milestone: "booking",
    title: "Load test: 200 concurrent bookings against one staff member on staging",
    priority: "p1",
    profile: "verification",
    owner: "tom",
    objective: "A k6 scenario that books 200 concurrent requests into the same afternoon and checks that no two bookings overlap and p95 stays under 400 ms.",
    scope: ["load/k6/concurrent-bookings.js"],
    depends_on: ["BK-014", "BK-017"],
    acceptance_criteria: [
      "0 overlapping bookings after the run",
      "p95 booking latency under 400 ms at 200 virtual users",
    ],
    validation: ["k6 run load/k6/concurrent-bookings.js --env BASE_URL=https://staging.harbor.test"],
    evidence_required: ["k6_report"],
    created_at: "2026-09-30",
  },

  {
    id: "BK-022",
    milestone: "booking",
    title: "Spike: generate an ICS file for one staff member",
    priority: "p2",
    profile: "research",
    owner: "lea",
    objective: "Find out whether generating ICS by hand is enough or a library is needed, and how Google Calendar treats recurring time off.",
    scope: ["spikes/ics-export"],
    depends_on: ["BK-003"],
    acceptance_criteria: ["A written recommendation with one sample file that imports cleanly into Google Calendar and Outlook"],
    validation: ["npx ical-validator spikes/ics-export/sample.ics"],
    evidence_required: ["spike_report"],
    stamps: { started_at: "2026-10-06T13:00:00Z", completed_at: "2026-10-09T12:00:00Z" },
    evidence: [
      {
        covers: "spike_report",
        type: "artifact",
        artifact: "docs/spikes/2026-10-ics-export.md",
        result: "use the ical-generator library; a subscription feed beats a nightly file (recommendation adopted as BK-020, calendar-export superseded)",
        recorded_at: "2026-10-09T11:45:00Z",
      },
    ],
    created_at: "2026-09-30",
  },

  // ---- calendar-export (SUPERSEDED by booking's live feed)
  {
    id: "BK-023",
    milestone: "calendar-export",
    title: "Nightly job uploads ICS files to object storage with signed URLs",
    priority: "p2",
    profile: "implementation",
    cancelled: true,
    owner: "lea",
    objective: "Generate every staff member's ICS file at 02:00 UTC and upload it to the bucket behind a signed URL.",
    why: "Cancelled 2026-10-15 with its milestone: the spike (BK-022) showed a live feed (BK-020) beats a nightly file.",
    scope: ["apps/api/src/jobs/ics-export.ts", "infra/terraform/storage.tf"],
    depends_on: ["BK-003"],
    acceptance_criteria: ["The file of every staff member is regenerated nightly"],
    validation: ["pnpm --filter api test -- jobs/ics-export"],
    evidence_required: ["nightly_run"],
    created_at: "2026-09-30",
    updated_at: "2026-10-15",
  },

  // ---- notifications (PLANNED)
  {
    id: "BK-024",
    milestone: "notifications",
    title: "Transactional email through Postmark with versioned templates",
    priority: "p1",
    profile: "implementation",
    owner: "marek",
    objective: "Send every transactional email through one module that renders versioned MJML templates and records delivery, bounce and spam-complaint webhooks.",
    scope: ["apps/api/src/notifications/email", "apps/api/src/notifications/templates"],
    depends_on: ["BK-004"],
    acceptance_criteria: [
      "A hard bounce marks the address undeliverable and stops further sends to it",
      "Templates render identically in the preview and in the sent email",
    ],
    validation: ["pnpm --filter api test -- notifications/email"],
    evidence_required: ["bounce_handling", "template_snapshots"],
    created_at: "2026-10-01",
  },
  {
    id: "BK-025",
    milestone: "notifications",
    title: "Booking confirmation now and a reminder 24 hours before",
    priority: "p1",
    profile: "implementation",
    owner: "marek",
    objective: "Queue a confirmation email at booking time and a reminder 24 hours before the appointment, cancelled when the booking is.",
    scope: ["apps/api/src/notifications/reminders.ts", "apps/api/src/jobs/scheduler.ts"],
    depends_on: ["BK-024", "BK-015"],
    acceptance_criteria: [
      "A cancelled booking sends no reminder",
      "A booking made less than 24 hours ahead gets the confirmation only",
    ],
    validation: ["pnpm --filter api test -- notifications/reminders"],
    evidence_required: ["reminder_tests"],
    created_at: "2026-10-01",
  },
  {
    id: "BK-026",
    milestone: "notifications",
    title: "SMS reminders for customers who opt in",
    priority: "p2",
    profile: "implementation",
    owner: "marek",
    objective: "Send the 24-hour reminder by SMS as well when the customer ticked the SMS box, with STOP handling as the carriers require.",
    scope: ["apps/api/src/notifications/sms"],
    depends_on: ["BK-025", "BK-040"],
    acceptance_criteria: [
      "Replying STOP opts the number out within one minute",
      "No SMS is sent between 21:00 and 08:00 in the customer's time zone",
    ],
    validation: ["pnpm --filter api test -- notifications/sms"],
    evidence_required: ["stop_handling", "quiet_hours"],
    risk: "BK-040 (choose the SMS provider) was moved to the procurement board and no longer exists in this plan.",
    created_at: "2026-10-01",
    updated_at: "2026-10-20",
  },
  {
    id: "BK-027",
    milestone: "notifications",
    title: "On-call runbook for failed reminder delivery",
    priority: "p2",
    profile: "documentation",
    owner: "tom",
    objective: "Write what on-call checks when reminders stop going out: the provider status page, the bounce dashboard, the job queue depth and how to replay a day.",
    scope: ["docs/runbooks/reminders.md"],
    depends_on: ["BK-004"],
    acceptance_criteria: ["A teammate who did not write it replays one day of reminders on staging by following it"],
    validation: ["markdownlint docs/runbooks/reminders.md"],
    evidence_required: [],
    created_at: "2026-11-07",
  },

  // ---- payments (gated: accounts and booking are not DONE)
  {
    id: "BK-028",
    milestone: "payments",
    title: "Stripe Connect onboarding for a business",
    priority: "p1",
    profile: "implementation",
    owner: "priya",
    objective: "An owner connects a Stripe Express account from settings; the API stores the account id and listens for account.updated.",
    scope: ["apps/api/src/payments/connect.ts", "apps/web/src/app/settings/payments"],
    depends_on: ["BK-010"],
    acceptance_criteria: [
      "Only an owner can start or change the Stripe connection",
      "An account with charges disabled cannot take deposits and the owner is told why",
    ],
    validation: ["pnpm --filter api test -- payments/connect", "stripe trigger account.updated"],
    evidence_required: ["connect_onboarding_test"],
    created_at: "2026-10-01",
  },
  {
    id: "BK-029",
    milestone: "payments",
    title: "Take a deposit at booking time with Stripe Checkout",
    priority: "p1",
    profile: "implementation",
    owner: "tom",
    objective: "When a service has a deposit, the booking page hands over to Stripe Checkout and the slot is held for 10 minutes until payment succeeds.",
    scope: ["apps/api/src/payments/checkout.ts", "apps/web/src/app/book"],
    depends_on: ["BK-028", "BK-014"],
    acceptance_criteria: [
      "An abandoned checkout releases the held slot after 10 minutes",
      "A paid booking shows the deposit on the manage page and the receipt",
    ],
    validation: ["pnpm --filter web e2e -- deposit", "stripe trigger checkout.session.completed"],
    evidence_required: ["deposit_e2e"],
    created_at: "2026-10-01",
  },
  {
    id: "BK-030",
    milestone: "payments",
    title: "Automatic refunds for cancellations inside the policy window",
    priority: "p2",
    profile: "implementation",
    owner: "priya",
    objective: "Refund the deposit automatically when a customer cancels before the business's deadline; keep it and tell the customer when they cancel after.",
    scope: ["apps/api/src/payments/refunds.ts"],
    depends_on: ["BK-029"],
    acceptance_criteria: ["A refund is issued exactly once even when the cancel request is retried"],
    validation: ["pnpm --filter api test -- payments/refunds"],
    evidence_required: ["idempotent_refund"],
    created_at: "2026-10-01",
  },
  {
    id: "BK-031",
    milestone: "payments",
    title: "Monthly payouts report for owners",
    priority: "p3",
    profile: "implementation",
    owner: "lea",
    objective: "Owners download a CSV of the month's deposits, refunds and payouts that matches their Stripe dashboard to the cent.",
    scope: ["apps/api/src/payments/reports.ts", "apps/web/src/app/settings/payments/reports"],
    depends_on: ["BK-028"],
    acceptance_criteria: ["The report's totals equal Stripe's balance transactions for the same month"],
    validation: ["pnpm --filter api test -- payments/reports"],
    evidence_required: ["report_reconciles"],
    created_at: "2026-10-01",
  },

  // ---- mobile-apps (CANCELLED)
  {
    id: "BK-032",
    milestone: "mobile-apps",
    title: "React Native shell sharing the typed API client",
    priority: "p3",
    profile: "implementation",
    cancelled: true,
    owner: "tom",
    objective: "An Expo app that logs in and shows today's appointments through packages/api-client.",
    why: "Cancelled 2026-10-19 with its milestone.",
    scope: ["apps/mobile", "packages/api-client"],
    depends_on: ["BK-014"],
    acceptance_criteria: ["The app logs in and lists today's appointments on iOS and Android"],
    validation: ["pnpm --filter mobile test"],
    evidence_required: ["device_test"],
    created_at: "2026-09-30",
    updated_at: "2026-10-19",
  },
  {
    id: "BK-033",
    milestone: "mobile-apps",
    title: "Push notification to staff for every new booking",
    priority: "p3",
    profile: "implementation",
    cancelled: true,
    owner: "tom",
    objective: "Notify the assigned staff member's phone within a minute of a new booking.",
    why: "Cancelled 2026-10-19 with its milestone.",
    scope: ["apps/mobile/src/push", "apps/api/src/notifications/push"],
    depends_on: ["BK-032"],
    acceptance_criteria: ["A new booking reaches the staff member's phone within 60 seconds"],
    validation: ["pnpm --filter mobile test -- push"],
    evidence_required: ["push_delivery"],
    created_at: "2026-09-30",
    updated_at: "2026-10-19",
  },
];

// ---------------------------------------------------------------------------------------------
// Records in file form. `shift` moves every date of the record by that many days (the history
// `npm run demo` writes is dated back from today); the seals are computed on the moved stamps.
// Dates inside prose are moved only in `why` and `risks`, which tell when something was decided.

const DAY_MS = 86_400_000;

/** A date (YYYY-MM-DD) or ISO time (YYYY-MM-DDTHH:MM:SSZ) moved by `days` whole days. */
export function shiftDate(value, days) {
  if (days === 0 || value === undefined) return value;
  const isDate = value.length === 10;
  const ms = Date.parse(isDate ? `${value}T00:00:00Z` : value) + days * DAY_MS;
  const iso = new Date(ms).toISOString();
  return isDate ? iso.slice(0, 10) : iso.replace(/\.\d{3}Z$/, "Z");
}

function shiftProse(text, days) {
  return text?.replace(/\b\d{4}-\d{2}-\d{2}\b/g, (d) => shiftDate(d, days));
}

function milestoneRecord(m, shift = 0) {
  const { evidence, ...fields } = m;
  return emit({
    id: fields.id,
    title: fields.title,
    slug: fields.slug,
    version: fields.version,
    order: fields.order,
    priority: fields.priority,
    cancelled: fields.cancelled,
    superseded_by: fields.superseded_by,
    problem: fields.problem,
    outcome: fields.outcome,
    scope: fields.scope,
    acceptance_criteria: fields.acceptance_criteria,
    validation: fields.validation,
    evidence_required: fields.evidence_required,
    depends_on: fields.depends_on,
    risks: fields.risks?.map((r) => shiftProse(r, shift)),
    created_at: shiftDate(fields.created_at, shift),
    updated_at: shiftDate(fields.updated_at, shift),
    evidence: evidence?.map((e) => evidenceEntry(m.id, e, shift)),
  });
}

function evidenceEntry(id, e, shift) {
  return {
    covers: e.covers,
    type: e.type,
    command: e.command,
    result: e.result,
    artifact: e.artifact,
    commit: commitOf(id, e.covers, e.recorded_at),
    recorded_at: shiftDate(e.recorded_at, shift),
  };
}

function lastStamp(issue) {
  const stamps = Object.values(issue.stamps ?? {});
  return stamps.length ? stamps.sort().at(-1) : undefined;
}

function issueRecord(issue, shift = 0) {
  const stamps = {};
  for (const { field, seal, event } of MOVES) {
    const at = shiftDate(issue.stamps?.[field], shift);
    if (at === undefined) continue;
    stamps[field] = at;
    stamps[seal] = sealOf(event, issue.id, at);
  }
  return emit({
    id: issue.id,
    milestone: issue.milestone,
    title: issue.title,
    slug: issue.slug ?? slugOf(issue.title),
    priority: issue.priority,
    profile: issue.profile,
    parallel_safe: issue.parallel_safe,
    cancelled: issue.cancelled,
    owner: issue.owner,
    objective: issue.objective,
    why: shiftProse(issue.why, shift),
    risk: issue.risk,
    scope: issue.scope,
    depends_on: issue.depends_on,
    acceptance_criteria: issue.acceptance_criteria,
    validation: issue.validation,
    evidence_required: issue.evidence_required,
    ...stamps,
    created_at: shiftDate(issue.created_at, shift),
    updated_at: shiftDate(issue.updated_at ?? lastStamp(issue) ?? issue.created_at, shift),
    evidence: issue.evidence?.map((e) => evidenceEntry(issue.id, e, shift)),
  });
}

function slugOf(title) {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .split("-")
    .slice(0, 7)
    .join("-");
}

// ---------------------------------------------------------------------------------------------
// The history: how the plan above came to be, one commit per moment something happened.
//
// The records above are the last state. Each record's earlier states follow from its own dates:
// it appears at its `created_at` (08:00 UTC), each stamp and evidence entry at its time, and a
// cancellation, a supersession or a late `why`/`risk` at its `updated_at` (12:00 UTC for a date).
// `demoHistory(shift)` moves every date by `shift` days, so `npm run demo` can end the history
// yesterday whatever today is; with shift 0 its last commit holds exactly the files above.

/** The day the demo's records are written as of: the history ends the day before. */
export const DEMO_TODAY = "2026-11-10";

/** Records that existed for a while and are gone from the final plan. */
const REMOVED_ISSUES = [
  {
    removed_at: "2026-10-20T12:00:00Z",
    removed_because: "moved to the procurement board",
    issue: {
      id: "BK-040",
      milestone: "notifications",
      title: "Choose the SMS provider",
      priority: "p2",
      profile: "research",
      owner: "marek",
      objective: "Compare Twilio, MessageBird and Vonage on price per SMS in our five launch countries, STOP handling and delivery receipts.",
      scope: ["docs/decisions"],
      depends_on: [],
      acceptance_criteria: ["A decision record names the provider and the price per SMS in each launch country"],
      validation: ["markdownlint docs/decisions"],
      evidence_required: ["decision_record"],
      created_at: "2026-10-01",
    },
  },
];

const PEOPLE = { marek: "Marek Nowak", priya: "Priya Raman", tom: "Tom Okafor", lea: "Léa Martin", ana: "Ana Sousa" };
const LEAD = "ana";

const atTime = (value, hour) => (value.length === 10 ? `${value}T${hour}:00:00Z` : value);
const STAMP_VERBS = { started_at: "Start", verified_at: "Verify", completed_at: "Finish" };

/** Every dated event of the plan, in the original timeline: { at, record, kind, text, author }. */
function planEvents() {
  const events = [];
  const push = (at, record, kind, text, author) => events.push({ at, record, kind, text, author, short: shortOf(kind, record, text) });
  push(atTime("2026-09-28", "08"), "project", "create", "Start the plan of Harbor Bookings", LEAD);
  for (const m of MILESTONES) {
    push(atTime(m.created_at, "08"), m.id, "create", `Add milestone ${m.id}: ${m.title}`, LEAD);
    for (const e of m.evidence ?? []) push(e.recorded_at, m.id, "evidence", `Evidence for ${m.id}: ${e.covers}`, LEAD);
    if (m.updated_at) {
      const what = m.cancelled ? `Cancel milestone ${m.id}` : m.superseded_by ? `Milestone ${m.id} superseded by ${m.superseded_by}` : `Update milestone ${m.id}`;
      push(atTime(m.updated_at, "12"), m.id, "update", what, LEAD);
    }
  }
  for (const issue of ISSUES) {
    push(atTime(issue.created_at, "08"), issue.id, "create", `Add ${issue.id}: ${issue.title}`, LEAD);
    for (const [field, at] of Object.entries(issue.stamps ?? {})) push(at, issue.id, "stamp", `${STAMP_VERBS[field]} ${issue.id}`, issue.owner);
    for (const e of issue.evidence ?? []) push(e.recorded_at, issue.id, "evidence", `Evidence for ${issue.id}: ${e.covers}`, issue.owner);
    if (issue.updated_at) push(atTime(issue.updated_at, "12"), issue.id, "update", issue.cancelled ? `Cancel ${issue.id}` : `Update ${issue.id}`, LEAD);
  }
  for (const { removed_at, removed_because, issue } of REMOVED_ISSUES) {
    push(atTime(issue.created_at, "08"), issue.id, "create", `Add ${issue.id}: ${issue.title}`, LEAD);
    push(removed_at, issue.id, "remove", `Remove ${issue.id}: ${removed_because}`, LEAD);
  }
  return events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** An event in a few words, for a commit subject that names several. */
function shortOf(kind, record, text) {
  if (kind === "create") return record === "project" ? text : `add ${record}`;
  if (kind === "evidence") return `evidence for ${record}`;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** A commit's message: its one event, or a subject naming them all and a line for each. */
function messageOf(events) {
  if (events.length === 1) return `${events[0].text}\n`;
  const allAdds = events.every((e) => e.kind === "create");
  const shorts = allAdds ? events.map((e) => e.record) : events.map((e) => e.short);
  const lead = allAdds ? "Add " : "";
  let subject = lead + shorts.join(", ");
  if (events.some((e) => e.record === "project")) subject = events.find((e) => e.record === "project").text;
  else if (subject.length > 72) subject = `${lead}${shorts.slice(0, 4).join(", ")} and ${shorts.length - 4} more`;
  subject = subject.charAt(0).toUpperCase() + subject.slice(1);
  return `${subject}\n\n${events.filter((e) => e.text !== subject).map((e) => `- ${e.text}`).join("\n")}\n`;
}

/** An issue as it stood at `t` (original timeline), or undefined before it was written. */
function issueAt(issue, t) {
  const created = atTime(issue.created_at, "08");
  if (created > t) return undefined;
  const updated = issue.updated_at === undefined ? undefined : atTime(issue.updated_at, "12");
  const stamps = Object.fromEntries(Object.entries(issue.stamps ?? {}).filter(([, at]) => at <= t));
  const evidence = issue.evidence?.filter((e) => e.recorded_at <= t);
  const times = [created, updated, ...Object.values(issue.stamps ?? {}), ...(issue.evidence ?? []).map((e) => e.recorded_at)];
  const isWhole = times.every((at) => at === undefined || at <= t);
  if (isWhole) return issue;
  const late = updated !== undefined && updated > t;
  return {
    ...issue,
    cancelled: late ? undefined : issue.cancelled,
    why: late ? undefined : issue.why,
    risk: late ? undefined : issue.risk,
    stamps,
    evidence: evidence?.length ? evidence : undefined,
    updated_at: lastStamp({ stamps }) ?? issue.created_at,
  };
}

function milestoneAt(m, t) {
  if (atTime(m.created_at, "08") > t) return undefined;
  const updated = m.updated_at === undefined ? undefined : atTime(m.updated_at, "12");
  const times = [updated, ...(m.evidence ?? []).map((e) => e.recorded_at)];
  if (times.every((at) => at === undefined || at <= t)) return m;
  const late = updated !== undefined && updated > t;
  const evidence = m.evidence?.filter((e) => e.recorded_at <= t);
  return {
    ...m,
    cancelled: late ? undefined : m.cancelled,
    superseded_by: late ? undefined : m.superseded_by,
    // The risks of a dropped milestone say why it was dropped.
    risks: late && (m.cancelled || m.superseded_by) ? undefined : m.risks,
    evidence: evidence?.length ? evidence : undefined,
    updated_at: late ? undefined : m.updated_at,
  };
}

/** The files of the plan as they stood at `t` (original timeline), dates moved by `shift`. */
function filesAt(t, shift) {
  const files = new Map();
  files.set("README.md", README);
  files.set(".ai/repo/project/project.yaml", emit(PROJECT));
  for (const m of MILESTONES) {
    const state = milestoneAt(m, t);
    if (state) files.set(`.ai/repo/project/milestones/${m.id}.yaml`, milestoneRecord(state, shift));
  }
  for (const issue of ISSUES) {
    const state = issueAt(issue, t);
    if (state) files.set(`.ai/repo/project/issues/${issue.id}.yaml`, issueRecord(state, shift));
  }
  for (const { removed_at, issue } of REMOVED_ISSUES) {
    const state = removed_at > t ? issueAt(issue, t) : undefined;
    if (state) files.set(`.ai/repo/project/issues/${issue.id}.yaml`, issueRecord(state, shift));
  }
  return files;
}

// ---------------------------------------------------------------------------------------------
// The code: the same repository holds Harbor's code, so the history has branches, commits and
// merges that mention the issues (docs/code-links.md). Code commits touch only src/ and spike/,
// never .ai/, so every plan-derived answer is the same with or without them. Times are in the
// original timeline and never meet a plan commit's.

const code = (lines) => `${lines.join("\n")}\n`;

/**
 * Each branch: its commits ({ at, message, files }), then how it ends: `merge` (a merge commit at
 * that time, the branch kept unless `deleted`), `squash` (one commit on main, the branch gone) or
 * nothing (still open). `remote` puts it under refs/remotes/<remote>/ (a teammate's, fetched).
 */
const CODE_BRANCHES = [
  {
    name: "bk-005-request-ids",
    author: "tom",
    direct: true,
    commits: [
      {
        at: "2026-10-03T16:07:00Z",
        message: "Log the request id on every API line\n\nRefs: BK-005",
        files: { "src/logging/request-id.ts": code(["export const REQUEST_ID_HEADER = \"x-request-id\";", "export function withRequestId(line: object, id: string) {", "  return { ...line, request_id: id };", "}"]) },
      },
    ],
  },
  {
    name: "bk-022-ics-spike",
    author: "lea",
    commits: [
      { at: "2026-10-07T11:07:00Z", message: "Spike: write one staff member's week as ICS", files: { "spike/ics/export.ts": code(["// One VCALENDAR per staff member, one VEVENT per booking.", "export function toIcs(events: { start: string; end: string; title: string }[]) {", "  return [\"BEGIN:VCALENDAR\", ...events.map((e) => `BEGIN:VEVENT\\nSUMMARY:${e.title}\\nEND:VEVENT`), \"END:VCALENDAR\"].join(\"\\n\");", "}"]) } },
      { at: "2026-10-08T15:42:00Z", message: "Spike: time zones as TZID, not UTC", files: { "spike/ics/NOTES.md": code(["Outlook shows UTC events an hour off after the change: write TZID."]) } },
    ],
  },
  {
    name: "bk-012-working-hours",
    author: "lea",
    squash: { at: "2026-10-20T13:07:00Z", message: "Staff working hours, breaks and time off (BK-012) (#14)" },
    commits: [
      { at: "2026-10-15T10:07:00Z", message: "Working hours per weekday", files: { "src/booking/working-hours.ts": code(["export interface Hours { weekday: number; from: string; to: string }"]) } },
      { at: "2026-10-17T14:07:00Z", message: "Breaks and time off cut the hours", files: { "src/booking/working-hours.ts": code(["export interface Hours { weekday: number; from: string; to: string }", "export interface TimeOff { from: string; to: string; reason: string }"]) } },
    ],
  },
  {
    name: "feature/BK-013-dst-slots",
    author: "priya",
    merge: "2026-11-02T08:47:00Z",
    deleted: true,
    commits: [
      { at: "2026-10-27T10:07:00Z", message: "Slot engine: walk the day in local time", files: { "src/booking/slots.ts": code(["export function slotsOf(day: string, zone: string) {", "  return [] as string[];", "}"]) } },
      { at: "2026-10-29T15:07:00Z", message: "Slot engine: the missing hour has no slots, the repeated one no duplicates", files: { "src/booking/slots.ts": code(["// Slots are made in local time and converted once: a DST change never shifts a booking.", "export function slotsOf(day: string, zone: string) {", "  return [] as string[];", "}"]) } },
      { at: "2026-11-01T11:07:00Z", message: "Tests across the March and October changes", files: { "src/booking/slots.test.ts": code(["// Europe/Lisbon 2026-03-29 and 2026-10-25."]) } },
    ],
  },
  {
    name: "bk-015-signed-links",
    author: "marek",
    merge: "2026-11-04T16:07:00Z",
    commits: [
      { at: "2026-11-04T11:07:00Z", message: "Signed booking links with an expiry", files: { "src/booking/signed-link.ts": code(["export function signLink(bookingId: string, expires: number) {", "  return `${bookingId}.${expires}`;", "}"]) } },
      { at: "2026-11-04T13:37:00Z", message: "Confirm and cancel through the signed link", files: { "src/booking/signed-link.ts": code(["export function signLink(bookingId: string, expires: number) {", "  return `${bookingId}.${expires}`;", "}", "export type LinkAction = \"view\" | \"confirm\" | \"cancel\";"]) } },
      { at: "2026-11-04T15:07:00Z", message: "Reject expired and tampered links", files: { "src/booking/signed-link.test.ts": code(["// An edited expiry fails the signature."]) } },
    ],
  },
  {
    name: "bk-010-roles",
    author: "marek",
    merge: "2026-11-09T08:37:00Z",
    commits: [
      { at: "2026-11-05T14:07:00Z", message: "Roles table: owner, staff, viewer", files: { "src/auth/roles.ts": code(["export type Role = \"owner\" | \"staff\" | \"viewer\";"]) } },
      { at: "2026-11-06T11:07:00Z", message: "Enforce roles on every endpoint", files: { "src/auth/roles.ts": code(["export type Role = \"owner\" | \"staff\" | \"viewer\";", "export const CAN_WRITE: Role[] = [\"owner\", \"staff\"];"]) } },
      { at: "2026-11-07T16:07:00Z", message: "Role matrix test over every route", files: { "src/auth/roles.test.ts": code(["// Every route × every role: 403 unless allowed."]) } },
    ],
  },
  {
    name: "bk-020-ics-feed",
    author: "lea",
    commits: [
      { at: "2026-11-06T10:07:00Z", message: "ICS feed: a private token per staff member", files: { "src/calendar/feed-token.ts": code(["export const FEED_TOKEN_BYTES = 32;"]) } },
      { at: "2026-11-09T10:37:00Z", message: "ICS feed: serve the next 90 days", files: { "src/calendar/feed.ts": code(["export const FEED_DAYS = 90;"]) } },
    ],
  },
  {
    name: "bk-024-postmark",
    remote: "origin",
    author: "marek",
    commits: [
      { at: "2026-11-09T14:07:00Z", message: "Postmark client with retries", files: { "src/email/postmark.ts": code(["export const POSTMARK_RETRIES = 3;"]) } },
      { at: "2026-11-09T15:37:00Z", message: "Versioned templates for the booking emails", files: { "src/email/templates.ts": code(["export const TEMPLATE_VERSION = 1;"]) } },
    ],
  },
];

/** The code on main at the end (what merges and squashes brought): part of examples/demo. */
function finalMainCode() {
  const files = new Map();
  for (const b of CODE_BRANCHES) {
    if (!(b.direct || b.merge || b.squash)) continue;
    for (const c of b.commits) for (const [path, text] of Object.entries(c.files)) files.set(path, text);
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * The demo's history, oldest first (parents before children): one commit on main per moment with
 * a plan event, and the code's commits, branches and merges. Each is `{ at, author: { name,
 * email }, message, files, ref, parents }` where `files` is the whole tree then (relative path →
 * text) and `parents` are indices of earlier commits, the first parent first. All dates are moved
 * by `shift` days.
 */
export function demoHistory(shift = 0) {
  const byTime = new Map();
  for (const e of planEvents()) {
    const list = byTime.get(e.at) ?? [];
    list.push(e);
    byTime.set(e.at, list);
  }
  const person = (who) => ({ name: PEOPLE[who], email: `${who}@harbor.test` });
  // Every moment, in time order: plan commits, branch commits, merges and squashes.
  // The repository starts with its README, before the plan: a root commit naming no issue.
  const moments = [{ at: "2026-09-28T07:30:00Z", kind: "readme" }, ...[...byTime].map(([at, events]) => ({ at, kind: "plan", events }))];
  for (const b of CODE_BRANCHES) {
    for (const c of b.commits) moments.push({ at: c.at, kind: b.direct ? "direct" : "branch", branch: b, commit: c });
    if (b.merge) moments.push({ at: b.merge, kind: "merge", branch: b });
    if (b.squash) moments.push({ at: b.squash.at, kind: "squash", branch: b });
  }
  moments.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  for (let i = 1; i < moments.length; i++) {
    if (moments[i].at === moments[i - 1].at) throw new Error(`two demo commits at ${moments[i].at}: give the code's one another minute`);
  }
  const commits = [];
  const mainCode = new Map();
  let mainTip = -1;
  let mainPlanAt = "";
  const open = new Map(); // branch name → { tip, planAt, code }
  const tree = (planAt, codeFiles) => {
    const files = filesAt(planAt, shift);
    for (const [path, text] of [...codeFiles].sort(([a], [b]) => (a < b ? -1 : 1))) files.set(path, text);
    return files;
  };
  const refOf = (b) => (b.remote ? `refs/remotes/${b.remote}/${b.name}` : b.deleted || b.squash ? `refs/demo-deleted/${b.name}` : `refs/heads/${b.name}`);
  for (const m of moments) {
    const at = shiftDate(m.at, shift);
    if (m.kind === "readme") {
      commits.push({ at, author: person(LEAD), message: "Harbor Bookings: the repository\n", files: new Map([["README.md", README]]), ref: "refs/heads/main", parents: [] });
      mainTip = 0;
    } else if (m.kind === "plan") {
      mainPlanAt = m.at;
      const who = m.events[0].author;
      commits.push({ at, author: person(who), message: messageOf(m.events), files: tree(m.at, mainCode), ref: "refs/heads/main", parents: mainTip < 0 ? [] : [mainTip] });
      mainTip = commits.length - 1;
    } else if (m.kind === "direct") {
      for (const [path, text] of Object.entries(m.commit.files)) mainCode.set(path, text);
      commits.push({ at, author: person(m.branch.author), message: `${m.commit.message}\n`, files: tree(mainPlanAt, mainCode), ref: "refs/heads/main", parents: [mainTip] });
      mainTip = commits.length - 1;
    } else if (m.kind === "branch") {
      const b = m.branch;
      const state = open.get(b.name) ?? { tip: mainTip, planAt: mainPlanAt, code: new Map(mainCode) };
      for (const [path, text] of Object.entries(m.commit.files)) state.code.set(path, text);
      commits.push({ at, author: person(b.author), message: `${m.commit.message}\n`, files: tree(state.planAt, state.code), ref: refOf(b), parents: [state.tip] });
      state.tip = commits.length - 1;
      open.set(b.name, state);
    } else {
      const b = m.branch;
      const state = open.get(b.name);
      for (const c of b.commits) for (const [path, text] of Object.entries(c.files)) mainCode.set(path, text);
      const message = m.kind === "merge" ? `Merge branch '${b.name}'\n` : `${b.squash.message}\n`;
      const parents = m.kind === "merge" ? [mainTip, state.tip] : [mainTip];
      commits.push({ at, author: person(LEAD), message, files: tree(mainPlanAt, mainCode), ref: "refs/heads/main", parents });
      mainTip = commits.length - 1;
    }
  }
  return commits;
}

const README = `# Demo plan: Harbor Bookings

A small team (five people) ships **Harbor Bookings**, an appointment-booking web product for
salons, studios and clinics. This folder is a repository-native plan as Cockpit reads it:

    .ai/repo/project/project.yaml            the header
    .ai/repo/project/milestones/<id>.yaml    7 milestones
    .ai/repo/project/issues/<id>.yaml        33 issues (BK-001 .. BK-033)

Nothing here stores a status. Every status, wave, gate and finding below is derived from the
records by \`cockpit plan\`. The files are generated by \`node scripts/make-demo.mjs\`; edit the
script, not the files, and re-run it. Every lifecycle stamp (\`started_at\`, \`verified_at\`,
\`completed_at\`, all in October and November 2026) carries the seal of its event
(\`started_event\`, \`verified_event\`, \`completed_event\`), so every stamp counts.

## A past

\`npm run demo\` does not copy this folder: it writes the same plan into \`.demo/repo\` as a git
history of about six weeks (\`scripts/demo-history.mjs\`), one commit for each moment something
happened: records created, BK-016 and BK-020 added to \`booking\` mid-way, BK-040 removed, every
move and evidence entry at its time, BK-019 cancelled. Every date is moved by the same number of
days so that the last commit is yesterday (BK-010 verified the day before, finished yesterday;
BK-027 added three days ago), BK-015 has been ACTIVE for six days, and the last 30 days hold
several completions for the forecast. The last commit equals this folder apart from those dates.

## Try it

    node bin/cockpit plan status   --repo examples/demo
    node bin/cockpit plan roadmap  --repo examples/demo
    node bin/cockpit plan waves    --repo examples/demo
    node bin/cockpit plan next     --repo examples/demo
    node bin/cockpit plan validate --repo examples/demo     # exits 10: one FAIL, see below
    node bin/cockpit plan record payments --repo examples/demo
    node bin/cockpit plan issues --status BLOCKED --repo examples/demo

## What it shows

### Milestones: every status

| Milestone | Version | Derived status | Why |
|---|---|---|---|
| \`foundations\` | 0.1 | DONE | every issue DONE and the milestone's own evidence (\`ci_green_on_main\`, \`staging_deploy\`) recorded |
| \`accounts\` | 0.2 | VERIFY | every issue DONE, but the milestone's \`security_review\` evidence is missing (\`milestone_evidence_missing\`) |
| \`booking\` | 0.3 | ACTIVE | work started: issues DONE, ACTIVE, VERIFY, READY, BLOCKED and one CANCELLED |
| \`calendar-export\` | 0.3 | SUPERSEDED | \`superseded_by: booking\`: the live calendar feed (BK-020) replaces the nightly file |
| \`notifications\` | 0.4 | PLANNED | READY work, nothing started |
| \`payments\` | 0.5 | BLOCKED | **the milestone gate**: it depends on \`accounts\` and \`booking\`, neither DONE |
| \`mobile-apps\` | 1.1 | CANCELLED | \`cancelled: true\` |

The active milestone is \`booking\` (the lowest-ranked unblocked ACTIVE one); the roadmap's
*now* is \`accounts\` (first open milestone in roadmap order, waiting for its security review)
and *next* is \`booking\`.

### Issues: every status

- **DONE**: BK-001..BK-012 and BK-022 (the spike that led to the live feed and superseded
  \`calendar-export\`): stamps sealed, evidence covers every \`evidence_required\` token
  (BK-005 and BK-022 went from ACTIVE straight to DONE, without \`verified_at\`).
- **VERIFY**: BK-013 (verified, waiting for review) and BK-017 (\`completed_at\` is set but the
  \`race_test\` evidence is missing, so it stays VERIFY: \`evidence_missing\`).
- **ACTIVE**: BK-015.
- **READY**: BK-016, BK-020, BK-024, BK-027. \`plan next\` hands out **BK-020** (wave 4, p1, in the
  active milestone).
- **BLOCKED** by dependencies: BK-014, BK-018, BK-021, BK-025, BK-026.
- **BLOCKED by the gate**: BK-028..BK-031 carry \`milestone:payments\` in \`blocked_by\`. BK-028's
  only dependency (BK-010) is DONE, so without the gate it would be READY.
- **CANCELLED**: BK-019 (dropped from booking), BK-023 (with its superseded milestone),
  BK-032 and BK-033 (with the cancelled milestone).

### Waves

Nine waves (0..8): scaffold → CI and database → staging, sign-up, catalogue → ... → refunds.
Waves are structural: DONE and CANCELLED issues keep their place.

### Findings (\`plan validate\`: 1 failure, 4 warnings)

| Level | Code | Subject | Story |
|---|---|---|---|
| WARN | \`evidence_missing\` | BK-017 | completed, but the race test was never recorded |
| FAIL | \`unknown_dependency\` | BK-026 | depends on BK-040, moved to another board and gone from this plan |
| WARN | \`no_evidence_required\` | BK-027 | a runbook nobody has to prove |
| WARN | \`milestone_evidence_missing\` | accounts | all work DONE, security review outstanding |
| WARN | \`scope_conflict\` | BK-015 | BK-015 (ACTIVE) and BK-016 (READY) are both in wave 4 and both touch \`apps/api/src/bookings\` |

No record is unreadable, no key is outside the allowlists, and no stamp lacks its event.

### Code (\`plan code\`, in the history \`npm run demo\` writes)

The repository holds Harbor's code too (\`src/\`), and its history has branches and merges that
mention the issues (docs/code-links.md in Cockpit): \`bk-010-roles\` merged yesterday (the
standup's *Landed*), \`feature/BK-013-dst-slots\` merged and deleted (\`merged_not_done\`),
\`bk-015-signed-links\` merged while BK-015 is still ACTIVE (\`merged_not_verified\`, \`stalled\`),
BK-012 squash-merged, \`bk-020-ics-feed\` and a teammate's \`origin/bk-024-postmark\` with commits on
READY issues (\`work_without_start\`), and the spike's \`bk-022-ics-spike\` never merged
(\`done_with_open_branch\`). Code commits never touch \`.ai/\`, so the plan is the same without them.
`;

// ---------------------------------------------------------------------------------------------
// Write

/** The files of the demo, relative path → text, in a stable order. */
export function demoFiles(shift = 0) {
  const files = new Map();
  files.set("README.md", README);
  files.set(".ai/repo/project/project.yaml", emit(PROJECT));
  for (const m of MILESTONES) files.set(`.ai/repo/project/milestones/${m.id}.yaml`, milestoneRecord(m, shift));
  for (const i of ISSUES) files.set(`.ai/repo/project/issues/${i.id}.yaml`, issueRecord(i, shift));
  for (const [path, text] of finalMainCode()) files.set(path, text);
  return files;
}

function writeDemo(outDir) {
  const files = demoFiles();
  // Drop records a previous run wrote that this one does not (a renamed issue must not linger).
  for (const sub of [".ai/repo/project/milestones", ".ai/repo/project/issues"]) {
    let names = [];
    try {
      names = readdirSync(join(outDir, sub));
    } catch {
      continue;
    }
    for (const name of names) {
      if (name.endsWith(".yaml") && !files.has(`${sub}/${name}`)) rmSync(join(outDir, sub, name));
    }
  }
  for (const [rel, text] of files) {
    const path = join(outDir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return files.size;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = resolve(process.argv[2] ?? join(root, "examples/demo"));
  const count = writeDemo(outDir);
  process.stdout.write(`make-demo: wrote ${count} files to ${outDir}\n`);
}
