import { describe, expect, it } from 'vitest';
import { INTENT_EFFECTS, intentEffects } from './intent.js';

describe('intent effects', () => {
  it('maps intents to the spec query additions and boosted document types, and none for other intents', () => {
    expect(intentEffects('due_diligence')).toEqual({ queryAdditions: ['risks', 'financials'], boostDocumentTypes: ['legal', 'regulatory'] });
    expect(intentEffects('lead_generation')).toEqual({ queryAdditions: [], boostDocumentTypes: [] });
    expect(intentEffects(undefined).queryAdditions).toEqual([]);
  });

  it('reports exactly the query additions search applies', () => {
    for (const [intent, effect] of Object.entries(INTENT_EFFECTS)) {
      expect(intentEffects(intent as keyof typeof INTENT_EFFECTS).queryAdditions).toBe(effect.queryAdditions);
    }
  });
});
