import type { Metadata } from "next";
import type { ReactNode } from "react";
import { CommandPalette } from "@/components/CommandPalette";
import { Nav } from "@/components/Nav";
import { Providers } from "@/components/Providers";
import { Shortcuts } from "@/components/Shortcuts";
import { servedState } from "@/lib/surfaces/pages";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Cockpit", template: "%s · Cockpit" },
  description: "A repository's plan, derived: where it stands, what is next, what is in the way.",
};

export const dynamic = "force-dynamic";

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { plan } = await servedState();
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <Providers>
          <Nav project={plan.project.name}>
            <CommandPalette />
          </Nav>
          <Shortcuts />
          <div className="mx-auto max-w-7xl px-6 py-6">{children}</div>
        </Providers>
      </body>
    </html>
  );
}
