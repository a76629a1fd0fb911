/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The types are checked once, by `tsc -p tsconfig.test.json` (npm test, npm run typecheck), which
  // covers the app with the tests: a second check inside every build only cost time.
  typescript: { ignoreBuildErrors: true },
  // "New plan from…" sends the source's files to plan.import through a server action (1 MB by default).
  experimental: { serverActions: { bodySizeLimit: "8mb" } },
  // A second build folder lets a test run build without disturbing a running server.
  distDir: process.env.COCKPIT_DIST_DIR || ".next",
  // Browsers ask for /favicon.ico on their own, at times before they read the page's icon link;
  // the icon is app/icon.svg.
  async redirects() {
    return [{ source: "/favicon.ico", destination: "/icon.svg", permanent: true }];
  },
};

module.exports = nextConfig;
