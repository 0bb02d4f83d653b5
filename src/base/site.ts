/** The site's address: Astro's `site` (astro.config.mjs), and the base of every URL the commands print (JSON Schemas). */
export const SITE_URL = 'https://gpu-memory-lab.example';
