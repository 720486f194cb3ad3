import { creditsText, pricing } from '@wvr/engine/vocabulary';
import { Command } from 'commander';
import { contextOf, withClient } from '../context.js';
import { emit } from '../output/print.js';

export function brandCommand(): Command {
  return new Command('brand')
    .description(`read a site’s brand system: name, tagline, logo, colours and fonts (${creditsText(pricing.brandDesignSystem().credits)})`)
    .argument('<url>', 'a page of the site, usually its home page')
    .action(async (url: string, _opts, command: Command) => {
      const ctx = contextOf(command);
      const brand = await withClient(ctx, (client) => client.brand.designSystem({ url }));
      emit(ctx.output, brand, (b) =>
        [
          `${b.name ?? '(no name)'}${b.tagline ? ` — ${b.tagline}` : ''}`,
          `Logo: ${b.logo ? `${b.logo.url} (${b.logo.source})` : '-'}   Favicon: ${b.favicon ?? '-'}`,
          `Colours: primary ${b.colors.primary ?? '-'}, secondary ${b.colors.secondary ?? '-'}, accent ${b.colors.accent ?? '-'}, background ${b.colors.background}, text ${b.colors.text}`,
          `Fonts: body ${b.typography.body_font ?? '-'}, headings ${b.typography.heading_font ?? '-'} (${b.typography.fonts.join(', ') || 'none declared'})`,
          `Read ${b.stylesheets_read} stylesheet${b.stylesheets_read === 1 ? '' : 's'}; ${b.credits.consumed} credit, ${b.credits.balance_after} left.`,
        ].join('\n'),
      );
    });
}
