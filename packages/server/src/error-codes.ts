import { z } from 'zod';

/**
 * The error codes docs/errors.md documents, published in the OpenAPI document so that clients
 * (the SDK) type `code` as their union. A test keeps this list and the page in step.
 */
export const ERROR_TYPES = [
  'validation_error',
  'authentication_error',
  'permission_error',
  'insufficient_credits',
  'not_found',
  'conflict',
  'payload_too_large',
  'rate_limit_exceeded',
  'upstream_error',
  'internal_error',
] as const;

/** Field codes are `<field>_<rule>` (and `<resource>_not_found`): the rules, so clients can type the pattern. */
export const FIELD_RULES = ['required', 'invalid_type', 'too_long', 'too_short', 'out_of_range', 'count_out_of_range', 'invalid', 'invalid_format', 'not_found'] as const;

export const ERROR_CODES = [
  'unknown_field', 'sync_max_pages_exceeded', 'extraction_schema_invalid_key', 'extraction_schema_too_many_fields',
  'extraction_instruction_too_short', 'extraction_schema_empty', 'auto_generate_intent_requires_schema', 'webhook_url_required',
  'organization_id_required', 'share_body_empty', 'patch_body_empty', 'workflow_type_required', 'operation_config_required',
  'operation_config_invalid', 'steps_required', 'step_duplicate_id', 'step_unknown_dependency', 'steps_cycle', 'intent_required',
  'max_credits_per_execution_required', 'schedule_required', 'interval_invalid', 'cron_expression_invalid',
  'cron_expression_never_fires', 'scheduled_for_invalid', 'timezone_invalid', 'scopes_duplicate', 'invalid_json', 'forbidden_key',
  'string_invalid_unicode', 'body_too_deep', 'token_missing', 'token_malformed', 'token_invalid', 'token_revoked', 'token_expired',
  'scope_missing', 'scope_escalation', 'insufficient_credits', 'rate_limit_exceeded', 'intent_assessment_rate_limited',
  'route_not_found', 'reservation_closed', 'payload_too_large', 'unsupported_media_type', 'internal_error',
  'proxy_tier_unavailable', 'url_not_allowed', 'unsupported_content', 'fetch_failed', 'search_provider_failed',
  'classifier_type_unknown', 'classifier_intent_missing', 'classifier_keyword_empty', 'classifier_url_pattern_empty',
  'classifier_pattern_invalid', 'crawl_not_active', 'crawl_not_pending', 'session_limit_reached', 'session_max_operations_reached',
  'session_completed', 'session_archived', 'session_already_completed', 'session_already_archived', 'session_not_completed',
  'session_read_only', 'workflow_transition_invalid', 'operation_config_not_applicable', 'cascade_condition_invalid',
  'planning_budget_too_small', 'window_invalid', 'window_too_long', 'notification_target_required', 'unknown_tool',
  'bad_request', 'invalid_content_length', 'scheduled_for_in_past', 'schedule_conflict', 'url_credentials_not_allowed',
  'webhook_url_not_allowed', 'token_management_forbidden', 'token_outlives_parent', 'database_busy', 'storage_full',
  'workflow_read_only', 'crawl_read_only', 'search_index_empty', 'search_provider_unset', 'render_unavailable',
] as const;

export const ErrorTypeSchema = z.enum(ERROR_TYPES).meta({ id: 'ErrorType' });
export const ErrorCodeSchema = z.enum(ERROR_CODES).describe('A code named in docs/errors.md').meta({ id: 'ErrorCode' });
export const FieldRuleSchema = z.enum(FIELD_RULES).describe('The rule part of a `<field>_<rule>` code').meta({ id: 'FieldErrorRule' });
const FieldCodeSchema = z
  .string()
  .regex(new RegExp(`^[a-z0-9_]+_(${FIELD_RULES.join('|')})$`))
  .describe('A field rule code: `<field>_<rule>` (see FieldErrorRule), e.g. query_too_long');
export const AnyErrorCodeSchema = z.union([ErrorCodeSchema, FieldCodeSchema]);
