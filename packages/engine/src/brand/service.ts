import { errors } from '../core/errors.js';
import { parseInput } from '../core/validate.js';
import type { Principal } from '../accounts/schemas.js';
import type { CreditsService } from '../credits/service.js';
import { pricing } from '../credits/pricing.js';
import type { PageFetcher } from '../web/types.js';
import { assertUsable } from '../web/usable.js';
import { linkedStylesheets, readBrand, type Stylesheet } from './read.js';
import { BrandRequestBody, type BrandDesignSystem } from './schemas.js';

/** Stylesheets beyond these rarely change the answer and would make one call fetch a whole site. */
const MAX_STYLESHEETS = 6;

/** Reads a site's brand system (colours, fonts, logo, name, tagline) from one page and its stylesheets. */
export class BrandService {
  constructor(
    private readonly web: PageFetcher,
    private readonly credits: CreditsService,
  ) {}

  async designSystem(principal: Principal, input: unknown): Promise<BrandDesignSystem> {
    const { url, render } = parseInput(BrandRequestBody, input);
    this.web.assertRenderAvailable?.(render);
    const price = render === 'always' ? pricing.renderedRead() : pricing.brandDesignSystem();
    // Fail before fetching when the caller cannot pay; charge only once the page was read.
    if (!(await this.credits.canAfford(principal.userId, price.credits)).would_succeed) {
      throw errors.insufficientCredits(price.credits, await this.credits.balance(principal.userId));
    }
    const page = await this.web.fetch({ url, render });
    assertUsable(page, url, ['html']);

    const sheetUrls = linkedStylesheets(page.body!, page.url).slice(0, MAX_STYLESHEETS);
    const fetched = await Promise.all(sheetUrls.map((sheet) => this.web.fetch({ url: sheet })));
    const stylesheets: Stylesheet[] = fetched
      .filter((s) => !s.error && s.status < 400 && s.body !== null)
      .map((s) => ({ url: s.url, css: s.body! }));

    const brand = readBrand(page.body!, page.url, stylesheets);
    const credits = await this.credits.charge(principal.userId, page.rendering?.rendered ? pricing.renderedRead() : price, 'brand_design_system');
    return { ...brand, stylesheets_read: stylesheets.length, credits };
  }
}
