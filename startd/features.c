/*
 * features.c: the policy engine's features (sd_engine.h), in the order
 * the engine calls their hooks.  The order matters where two features
 * have the same hook: dynamic slots go back to their partitionable slot
 * before draining looks at the slots (pass), and expired claims end
 * before the statistics of draining are brought up to date (poll).
 */
#include "sd_engine.h"
#include "sd_startd.h"

const struct sd_feature *const sd_features[] = {
	&sd_dslot_feature,
	&sd_claim_feature,
	&sd_drain_feature,
	&sd_backfill_feature,
	&sd_benchmarks_feature,
};
const size_t sd_nfeatures = sizeof(sd_features) / sizeof(sd_features[0]);
