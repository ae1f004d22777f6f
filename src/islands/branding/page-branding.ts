/**
 * After a change, the page the admin is on shows it at once, as every page will from the next request
 * on (BrandLogo.astro, the branding style of BareLayout.astro). Style properties set through the CSSOM are
 * not style attributes in the markup: the CSP allows them.
 */
import { fitInBox, LOGO_BOXES } from '~/shared/branding';

/**
 * The logo in the top bar: the upload, or the default icon each logo image names. Once the new file has
 * loaded, the image takes the size it has in the top bar's box, as the next page gives it: the default
 * icon's square would squeeze a wordmark to a sliver.
 */
export function showLogo(logoPath: string | null): void {
  for (const image of document.querySelectorAll<HTMLImageElement>('img[data-brand-logo]')) {
    // Inside <picture> the sources choose the file: they go, so that this one shows.
    image.parentElement?.querySelectorAll('source').forEach((source) => source.remove());
    image.removeAttribute('srcset');
    image.addEventListener(
      'load',
      () => {
        const fitted = fitInBox(
          { width: image.naturalWidth, height: image.naturalHeight },
          LOGO_BOXES.topBar,
        );
        image.width = fitted.width;
        image.height = fitted.height;
        image.classList.add('h-auto', 'object-contain');
      },
      { once: true },
    );
    image.src = logoPath ?? image.dataset.brandLogo!;
  }
}

export function showBackground(backgroundPath: string | null): void {
  const { style } = document.body;
  style.backgroundImage = backgroundPath ? `url("${backgroundPath}")` : 'none';
  style.backgroundPosition = 'center';
  style.backgroundSize = 'cover';
  style.backgroundAttachment = 'fixed';
  style.backgroundRepeat = 'no-repeat';
}

export function showCardOpacity(opacity: number): void {
  document.documentElement.style.setProperty('--card-opacity', String(opacity));
}
