// The catalogue's images as the build serves them (hashed asset URLs), by file name.
import { screenshotCatalogue, type ScreenshotName } from './screenshot-catalogue';

const urls = import.meta.glob<string>('./screenshots/*.png', {
  eager: true,
  query: '?url',
  import: 'default',
});

export function screenshotUrl(name: ScreenshotName): string {
  const url = urls[`./screenshots/${screenshotCatalogue[name].file}`];
  if (!url) throw new Error(`The screenshot ${name} is missing: run npm run screenshots.`);
  return url;
}
