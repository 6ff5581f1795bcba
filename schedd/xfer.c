/*
 * xfer.c: the submit side of file transfer (sc_xfer.h).
 *
 * Everything happens in the schedd's loop: a transfer is bounded
 * (KS_XFER_MAX_BYTES), which keeps the pause short.  The schedd runs as
 * root in a real pool; every file is opened with the job owner's
 * effective ids, so that a job can neither read nor overwrite a file its
 * owner could not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_priv.h"
#include "ks_text.h"
#include "sc_xfer.h"

static bool is_null_file(const char *f)
{
	return !f || !*f || !strcmp(f, "/dev/null");
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

bool sc_xfer_wanted(const classad *ad)
{
	char *stf = classad_eval_string_dup(ad, "ShouldTransferFiles");
	bool no = stf && !strcasecmp(stf, "NO");
	free(stf);
	return !no;
}

int sc_xfer_input(struct sc_schedd *s, const struct sc_job *j, classad *ad,
		  struct ks_xfer_set *set, int *eno, struct ks_err *err)
{
	*eno = 0;
	char *iwd = classad_eval_string_dup(ad, "Iwd");
	char *cmd = classad_eval_string_dup(ad, "Cmd");
	char *in = classad_eval_string_dup(ad, "In");
	char *list = classad_eval_string_dup(ad, "TransferInput");
	char *out = classad_eval_string_dup(ad, "Out");
	char *er = classad_eval_string_dup(ad, "Err");
	bool exe = true;
	classad_eval_bool(ad, "TransferExecutable", NULL, &exe);
	int rc = 0;
	if (!iwd || iwd[0] != '/')
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"the job has no absolute Iwd to read its "
				"files from");
	struct ks_priv_saved ids;
	if (rc == 0)
		rc = sc_as_owner(s, j->owner, &ids, err);
	if (rc == 0) {
		if (cmd && exe) {
			char *path = ks_path_in(iwd, cmd);
			rc = ks_xfer_add_path(set, path, base_name(cmd), eno,
					      err);
			free(path);
		}
		if (rc == 0 && !is_null_file(in)) {
			char *path = ks_path_in(iwd, in);
			rc = ks_xfer_add_path(set, path, base_name(in), eno,
					      err);
			free(path);
		}
		char **items = NULL;
		size_t n = ks_xfer_list_split(list, &items);
		for (size_t i = 0; rc == 0 && i < n; i++)
			rc = ks_xfer_add_entry(set, iwd, items[i], eno, err);
		ks_xfer_list_free(items, n);
		ks_priv_restore(&ids);
	}
	if (rc == 0) {
		if (cmd && exe)
			classad_insert_string(ad, "Cmd", base_name(cmd));
		if (!is_null_file(in))
			classad_insert_string(ad, "In", base_name(in));
		if (!is_null_file(out))
			classad_insert_string(ad, "Out", SC_XFER_STDOUT);
		if (!is_null_file(er))
			classad_insert_string(ad, "Err", SC_XFER_STDERR);
		classad_insert_int(ad, "TransferInputSizeMB",
				   (int64_t)((set->bytes + (1u << 20) - 1) >>
					     20));
	}
	free(iwd);
	free(cmd);
	free(in);
	free(list);
	free(out);
	free(er);
	return rc;
}

/* name's destination under TransferOutputRemaps ("a = b; c = d"), new
 * string, or NULL. */
static char *remap(const char *remaps, const char *name)
{
	if (!remaps)
		return NULL;
	char *copy = ks_xstrdup(remaps);
	char *save = NULL, *found = NULL;
	for (char *p = strtok_r(copy, ";", &save); p && !found;
	     p = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(p, '=');
		if (!eq)
			continue;
		*eq = '\0';
		if (!strcmp(ks_trim(p), name)) {
			char *to = ks_trim(eq + 1);
			if (*to)
				found = ks_xstrdup(to);
		}
	}
	free(copy);
	return found;
}

int sc_xfer_output(struct sc_schedd *s, const struct sc_job *j,
		   classad *const *ads, size_t n, uint64_t *bytes, int *eno,
		   struct ks_err *err)
{
	*bytes = 0;
	*eno = 0;
	if (n == 0)
		return 0;
	char *iwd = classad_eval_string_dup(j->ad, "Iwd");
	char *out = classad_eval_string_dup(j->ad, "Out");
	char *er = classad_eval_string_dup(j->ad, "Err");
	char *remaps = classad_eval_string_dup(j->ad, "TransferOutputRemaps");
	int rc = 0;
	if (!iwd || iwd[0] != '/')
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"the job has no absolute Iwd to write its "
				"files to");
	struct ks_priv_saved ids;
	if (rc == 0)
		rc = sc_as_owner(s, j->owner, &ids, err);
	if (rc != 0)
		goto done;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		char *name = ks_xfer_name(ads[i]);
		if (!name) {
			rc = ks_err_set(err, KS_EPROTO, 0, 0, 0,
					"the execution point sent a file "
					"without a valid FileName");
			break;
		}
		char *to = !strcmp(name, SC_XFER_STDOUT) && !is_null_file(out)
				   ? ks_xstrdup(out)
			   : !strcmp(name, SC_XFER_STDERR) && !is_null_file(er)
				   ? ks_xstrdup(er)
				   : remap(remaps, name);
		char *path = ks_path_in(iwd, to ? to : name);
		uint64_t w = 0;
		rc = ks_xfer_write(ads[i], path, true, false, 0, 0, &w, eno,
				   err);
		*bytes += w;
		free(path);
		free(to);
		free(name);
	}
	ks_priv_restore(&ids);
done:
	free(iwd);
	free(out);
	free(er);
	free(remaps);
	return rc;
}
