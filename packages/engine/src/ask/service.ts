import { z } from 'zod';
import type { EngineContext } from '../context.js';
import { errors } from '../core/errors.js';
import { parseInput } from '../core/validate.js';
import type { Principal } from '../accounts/schemas.js';
import type { CreditsService, Reservation } from '../credits/service.js';
import { pricing } from '../credits/pricing.js';
import type { AiService } from '../ai/service.js';
import { AskBody, type AskContext, type AskRequest, type AskResponse, type AskSource } from './schemas.js';
import type { AskCandidate, AskRetriever } from './retriever.js';
import {
  citationsValid,
  citedFirst,
  confidenceOf,
  extractiveAnswer,
  followUpQuestions,
  rankPassages,
  relevantDocs,
  salientTerms,
  type AskDocument,
  type RankedPassage,
} from './compose.js';
import { askedAttributes, type AskedAttributes } from './attributes.js';
import { readFacts, type FactReader, type PageFacts } from './facts.js';
import { factAnswer } from './fact-answer.js';

/** Pages read, claims in an extractive answer, per depth. Deep adds rounds of DEEP_ROUND_PAGES. */
const DEPTH = {
  quick: { pages: 3, claims: 2 },
  standard: { pages: 10, claims: 3 },
  deep: { pages: 10, claims: 5 },
} as const;
const DEEP_ROUND_PAGES = 5;
const PASSAGES_PER_SOURCE = 3;
const PASSAGES_TO_MODEL = 12;

const GroundedAnswer = z.object({
  answer: z.string().min(1),
  confidence: z.number().min(0).max(1),
  follow_up_questions: z.array(z.string()).max(5),
});

/**
 * `engine.asks`: researched answers. Retrieval (search, then reading pages), BM25 passage
 * ranking, then an answer from the configured model grounded in those passages, or an
 * extractive one. Every [n] in an answer names one of the returned sources.
 */
export class AskService {
  constructor(
    private readonly ctx: EngineContext,
    private readonly credits: CreditsService,
    private readonly ai: AiService,
    private readonly retriever: AskRetriever,
    private readonly facts: FactReader,
  ) {}

  /**
   * `POST /v1/asks`; the session runner passes `context` for an ask in a session. A body's
   * session_id is bound by the operation layer (runOperation), never taken here unchecked.
   */
  async create(principal: Principal, input: unknown, options: { context?: AskContext; signal?: AbortSignal } = {}): Promise<AskResponse> {
    const body = parseInput(AskBody, input);
    const price = pricing.ask(body.depth);
    // What the request asks for is judged before the state of the index: a 400 the caller can fix comes first.
    this.retriever.assertRender?.(body.render);
    await this.retriever.ready?.(principal);
    const reservation = await this.reserve(principal.userId, body.depth, price.credits, price.max_credits);
    try {
      await this.credits.use(reservation.id, price.credits);
      const research = await this.research(principal, body, options.context, reservation, options.signal);
      const answer = await this.answer(body, research.docs, research.ranked);
      const credits = await this.credits.commit(reservation.id, price);
      return {
        id: this.ctx.random.uuid(),
        question: body.question,
        depth: body.depth,
        ...answer,
        session_id: options.context?.sessionId ?? null,
        stats: { pages_considered: research.considered, pages_read: research.docs.length, passages_ranked: research.passages },
        credits: {
          ...credits,
          base_credits: price.credits,
          max_credits: reservation.amount,
          research_rounds: research.rounds,
        },
        created_at: this.ctx.clock.now().toISOString(),
      };
    } catch (error) {
      await this.credits.release(reservation.id);
      throw error;
    }
  }

  /** Holds the most this answer may cost; deep holds up to its maximum, or what the balance allows. */
  private async reserve(userId: string, depth: AskRequest['depth'], base: number, max: number): Promise<Reservation> {
    if (depth !== 'deep') return this.credits.reserve(userId, base, `ask:${depth}`);
    const balance = await this.credits.balance(userId);
    if (balance < base) throw errors.insufficientCredits(base, balance, { details: { operation: 'ask:deep' } });
    return this.credits.reserve(userId, Math.min(max, balance), 'ask:deep');
  }

  private async research(principal: Principal, body: AskRequest, context: AskContext | undefined, reservation: Reservation, signal?: AbortSignal) {
    const extra = context?.queryTerms?.slice(0, 5).join(' ') ?? '';
    const seen = new Set<string>();
    const docs: AskDocument[] = [];
    let considered = 0;
    const readSome = async (candidates: AskCandidate[], budget: number) => {
      const fresh = candidates.filter((c) => !seen.has(c.url));
      considered += fresh.length;
      const ordered = preferSeen(fresh, context?.seenUrls);
      for (const candidate of ordered) {
        if (budget <= 0) break;
        // An aborted ask stops reading; its hold is released below.
        signal?.throwIfAborted();
        seen.add(candidate.url);
        const doc = await this.retriever.read(principal, candidate, body.render);
        if (doc && doc.text.trim()) {
          docs.push(doc);
          budget--;
        }
      }
    };

    const firstBudget = Math.min(DEPTH[body.depth].pages, body.max_sources);
    await readSome(await this.retriever.find(principal, `${body.question} ${extra}`.trim(), Math.min(20, firstBudget * 2)), firstBudget);
    let rounds = 1;
    let ranking = rankPassages(body.question, docs);

    if (body.depth === 'deep') {
      // Each further round looks for pages on terms the best passages raised; it costs 1 credit,
      // charged only when the round has unread pages to read, and stops at the stated maximum.
      const extraRounds = reservation.amount - DEPTH_BASE_DEEP;
      const used: string[] = [];
      for (let attempt = 0; attempt < extraRounds * 2 && rounds - 1 < extraRounds; attempt++) {
        const next = salientTerms(body.question, ranking.ranked, used.length + 2).filter((t) => !used.includes(t)).slice(0, 2);
        if (next.length === 0) break;
        used.push(...next);
        const candidates = (await this.retriever.find(principal, `${body.question} ${next.join(' ')}`, 20)).filter((c) => !seen.has(c.url));
        if (candidates.length === 0) continue;
        if (!(await this.credits.use(reservation.id, 1))) break;
        rounds++;
        await readSome(candidates, DEEP_ROUND_PAGES);
        ranking = rankPassages(body.question, docs);
      }
    }
    return { docs, ranked: ranking.ranked, passages: ranking.total, considered, rounds };
  }

  private async answer(body: AskRequest, docs: AskDocument[], ranked: RankedPassage[]) {
    const relevant = relevantDocs(ranked, body.max_sources);
    const model = { provider: this.ai.provider.name, model: this.ai.provider.model, fallback_reason: null as string | null };
    if (relevant.length === 0) {
      return {
        answer: 'No source you can access answers this question.',
        answer_mode: 'extractive' as const,
        confidence: 0,
        sources: [],
        follow_up_questions: [],
        model,
      };
    }
    const claims = DEPTH[body.depth].claims;
    const asked = askedAttributes(body.question);
    const facts = await this.readFacts(asked, docs, relevant);
    // Asked attributes are stated from the pages' own data; otherwise (or when none is found) passages are quoted.
    const stated = factAnswer(asked, facts.flatMap((f, i) => (f ? [{ marker: i + 1, facts: f }] : [])));
    // The extractive confidence is computed below from the passages the answer ends up citing.
    const extractive = () => ({
      answer: stated ?? extractiveAnswer(ranked, relevant, claims),
      confidence: 0,
      follow_up_questions: followUpQuestions(body.question, ranked),
    });
    const result = await this.ai.object({
      name: 'grounded_answer',
      schema: GroundedAnswer,
      system:
        'Answer the question using only the numbered sources. End every sentence with the marker of the source it comes from, ' +
        'such as [1] or [2][3]. Never cite a number that is not listed, never use outside knowledge; if the sources do not answer, say so. ' +
        'confidence is 0 to 1: how fully the sources answer the question.',
      prompt: groundingPrompt(body.question, docs, relevant, ranked, facts),
      heuristic: extractive,
    });
    let value = result.value;
    let mode: 'extractive' | 'generated' = result.source === 'llm' ? 'generated' : 'extractive';
    model.fallback_reason = result.fallbackReason ?? null;
    if (mode === 'generated' && !citationsValid(value.answer, relevant.length)) {
      value = extractive();
      mode = 'extractive';
      model.fallback_reason = 'invalid_citations';
    }
    const { answer, order } = citedFirst(value.answer, relevant.length);
    const sources = order.map((old, i) => toSource(i + 1, docs[relevant[old - 1]!]!, relevant[old - 1]!, ranked, answer));
    const citedPassages = ranked.filter((p) => sources.some((s) => s.cited && docs[p.doc]!.url === s.url)).slice(0, claims);
    const heuristicConfidence = confidenceOf(body.question, citedPassages);
    return {
      answer,
      answer_mode: mode,
      confidence: mode === 'generated' ? Math.min(value.confidence, heuristicConfidence + 0.2) : heuristicConfidence,
      sources,
      follow_up_questions: value.follow_up_questions,
      model,
    };
  }

  /** The asked facts of each relevant page, in `relevant`'s order; none read when nothing is asked. */
  private async readFacts(asked: AskedAttributes, docs: AskDocument[], relevant: number[]): Promise<(PageFacts | null)[]> {
    if (asked.attributes.length === 0) return relevant.map(() => null);
    return Promise.all(relevant.map((d) => readFacts(this.facts, docs[d]!, asked)));
  }
}

/** Deep's base price; rounds beyond the first are paid from what the reservation holds above it. */
const DEPTH_BASE_DEEP = pricing.ask('deep').credits;

function preferSeen(candidates: AskCandidate[], seenUrls: string[] | undefined): AskCandidate[] {
  if (!seenUrls?.length) return candidates;
  const known = new Set(seenUrls);
  return [...candidates.filter((c) => known.has(c.url)), ...candidates.filter((c) => !known.has(c.url))];
}

function toSource(index: number, doc: AskDocument, docIndex: number, ranked: RankedPassage[], answer: string): AskSource {
  return {
    index,
    url: doc.url,
    title: doc.title,
    published_date: doc.publishedDate,
    cited: answer.includes(`[${index}]`),
    passages: ranked
      .filter((p) => p.doc === docIndex)
      .slice(0, PASSAGES_PER_SOURCE)
      .map((p) => ({ text: p.text, score: p.score })),
  };
}

function groundingPrompt(question: string, docs: AskDocument[], relevant: number[], ranked: RankedPassage[], facts: (PageFacts | null)[]): string {
  const blocks = relevant.map((d, i) => {
    const passages = ranked
      .filter((p) => p.doc === d)
      .slice(0, Math.max(1, Math.floor(PASSAGES_TO_MODEL / relevant.length)))
      .map((p) => `> ${p.text}`)
      .join('\n');
    const stated = facts[i] ? `\nFacts from the page's data: ${Object.entries(facts[i]!.values).map(([k, v]) => `${k}: ${v}`).join('; ')}` : '';
    return `[${i + 1}] ${docs[d]!.title} (${docs[d]!.url})${stated}\n${passages}`;
  });
  return `Question: ${question}\n\nSources:\n\n${blocks.join('\n\n')}`;
}
