/** npm run compose:images — builds the local images (scripts/compose/local-images.ts). */
import { buildLocalImages } from './local-images';

buildLocalImages().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
