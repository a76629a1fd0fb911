/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // A second build folder lets a test run build without disturbing a running server.
  distDir: process.env.COCKPIT_DIST_DIR || ".next",
};

module.exports = nextConfig;
