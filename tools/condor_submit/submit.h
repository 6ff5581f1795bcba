/*
 * submit.h: condor_submit's reading of a submit description (HTCondor's
 * submit language) and the job ads it makes.
 *
 * A description is a list of statements: "name = value" (a submit
 * command or a macro of the user's), "+Attr = expr" / "MY.Attr = expr"
 * (an attribute for the job ad as it is), and "queue ..." (make jobs of
 * everything set so far).  Values are expanded when a job is made:
 * $(name) is a macro (submit commands and the user's, case ignored), or
 * one of the per-job ones: $(Cluster) $(ClusterId) $(Process) $(ProcId)
 * $(Item) $(ItemIndex) $(Step) $(Row), and the queue statement's own
 * variables; $$(name) is left for the match.
 */
#ifndef SUB_SUBMIT_H
#define SUB_SUBMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "config.h"
#include "ks_err.h"

/* Expansion of a value stops growing here: a description whose macros
 * refer to each other over and over would otherwise take exponential
 * time. */
#define SUB_EXPAND_MAX (1u << 20)

/* One "name = value" in the order written. */
struct sub_var {
	char *name;
	char *value;
	bool attr;      /* +Attr or MY.Attr: a job attribute as written */
	int line;
	const char *src; /* the file it was read from (one of sub_file's
			  * srcs; NULL for a predefined macro) */
};

/* One queue statement: count, variable names and the item rows. */
struct sub_queue {
	long count;     /* jobs per item (queue N ...), 1 by default */
	char **vars;    /* names given, NULL-terminated; "Item" when none */
	size_t nvars;
	char ***rows;   /* each row: nvars values */
	size_t nrows;   /* its items (listed) */
	long *index;    /* each row's place in the whole list, when a slice
			 * left some out; NULL: the row's own */
	bool listed;    /* with "in", "from" or "matching": a job group of
			 * count per row, none without rows; else one */
	size_t nvars_set; /* how many vars were set before this queue */
	int line;
	const char *src; /* the file holding it (one of sub_file's srcs) */
};

struct sub_file {
	struct sub_var *vars;
	size_t nvars;
	/* the macros HTCondor's submit predefines ($(ARCH), $(IsLinux),
	 * $(JobId), $(SUBMIT_FILE), $(Year)...): found after the file's own,
	 * by $(...) only */
	struct sub_var *defs;
	size_t ndefs;
	struct sub_queue *queues;
	size_t nqueues;
	/* every name in vars and defs, as bits of a filter: a job's ad asks
	 * for some three hundred commands, most of them absent, and a miss
	 * should not cost a walk over every variable (sub_names_add()) */
	uint64_t names[4];
	/* the names of the files the statements were read from (the
	 * description, its includes, the command line's) */
	char **srcs;
	size_t nsrcs;
};

/* Notes name (len bytes, letter case aside) in a filter of names. */
void sub_names_add(uint64_t names[4], const char *name, size_t len);
/* False when name (len bytes) was certainly never added to names. */
bool sub_names_may_hold(const uint64_t names[4], const char *name,
			size_t len);

/* Reads a description (name is how errors name it; dir is where "from
 * FILE", "matching" and "include" look), its if / elif / else / endif
 * blocks and include lines too; $(SUBMIT_FILE) is name, and no
 * configuration gives $(ARCH) and the like (see sub_file_read()).  Returns 0, or KS_EPARSE with err saying
 * what and where (HTCondor's wording). */
int sub_file_parse(const char *text, size_t len, const char *name,
		   const char *dir, struct sub_file *out, struct ks_err *err);

/* What condor_submit's command line adds to a description, as lines of
 * statements (NULL or empty: none): args, its NAME=VALUE arguments, read
 * before the description; append, its -append lines (and -batch-name),
 * read again before each queue statement, so that they win over what the
 * description sets, as HTCondor reads them.  Neither may hold a queue
 * statement. */
struct sub_cmdline {
	const char *args;
	const char *append;
	/* whether "queue ... from -" may read standard input (not when the
	 * description came from it; not without a command line) */
	bool item_stdin;
};

/* sub_file_parse() as condor_submit reads a file: cfg (NULL allowed)
 * gives the predefined $(ARCH), $(OPSYS)... (HTCondor's submit takes them
 * from the configuration), file the value of $(SUBMIT_FILE) (the name
 * given on the command line; NULL for standard input), now that of
 * $(SUBMIT_TIME), $(Year), $(Month) and $(Day) (seconds since 1970), cl
 * (NULL allowed) the command line's additions.  A NUL byte anywhere is an
 * error naming its line. */
int sub_file_read(const char *text, size_t len, const char *name,
		  const char *file, const char *dir, const ks_config *cfg,
		  long long now, const struct sub_cmdline *cl,
		  struct sub_file *out, struct ks_err *err);
void sub_file_free(struct sub_file *f);
/* Whether f's queue statements make any job at all. */
bool sub_file_has_jobs(const struct sub_file *f);

/* What a job is made of: the variables set before its queue statement,
 * and its place among the jobs. */
struct sub_job_ctx {
	const struct sub_file *file;
	const struct sub_queue *queue;
	size_t row;            /* its item row (if any) */
	long cluster, proc, step, item_index;
	const char *iwd;       /* the directory condor_submit runs in */
	const char *user;      /* the submitting user */
	const ks_config *cfg;  /* JOB_DEFAULT_REQUEST*; NULL: built-in */
	long long qdate;       /* the submission's time (QDate), the same
				* for all its jobs */
	/* the first error of a macro function (sub_job_ad() sets it) */
	struct ks_err *expand_err;
	/* what the jobs before looked up, which the next mostly repeat
	 * (memo.c; NULL: nothing kept) */
	struct sub_memo *memo;
};

/* ---- memo.c: what the jobs of a submission look up alike ---- */

struct sub_memo;
struct sub_memo *sub_memo_new(void);
void sub_memo_free(struct sub_memo *m);
/* ks_config_get() of c->cfg (NULL without one): a new string or NULL,
 * the knob read once per submission. */
char *sub_knob(const struct sub_job_ctx *c, const char *name);
/* The same, as ks_config_bool() reads it; def when unset or not a
 * boolean. */
bool sub_knob_bool(const struct sub_job_ctx *c, const char *name, bool def);
/* access(path, mode), the answer kept for the next jobs (errno set as
 * access() sets it). */
int sub_access(const struct sub_job_ctx *c, const char *path, int mode);
/* stat(path): 0 with *is_dir and *size, or -1 with errno set; the answer
 * kept for the next jobs. */
int sub_stat(const struct sub_job_ctx *c, const char *path, bool *is_dir,
	     long long *size);
/* The size of the job's executable in KiB as HTCondor measures it once
 * per cluster: measured for the first job (proc 0, or any job without a
 * memo), the first job's value for the others. */
long long sub_exe_size(const struct sub_job_ctx *c, const char *path);
/* One more directory entry counted by sub_file_kb(): false once the
 * submission has counted SUB_WALK_MAX (an input directory that big is
 * counted in part, with a warning, rather than making condor_submit walk
 * a whole file system); always true without a memo. */
#define SUB_WALK_MAX 100000
bool sub_walk_take(const struct sub_job_ctx *c);

/* The job ad, or NULL with err saying why (HTCondor's messages). */
classad *sub_job_ad(const struct sub_job_ctx *c, struct ks_err *err);

/* ---- inside condor_submit: the commands job.c hands on ---- */

/* A command's expanded value (new string), else its other name's (alt,
 * may be NULL); NULL when neither is given or the value is empty. */
char *sub_param(const struct sub_job_ctx *c, const char *name,
		const char *alt);

/* Values as HTCondor reads them: an integer (or an expression that
 * evaluates to one), a boolean likewise.  False when v is neither. */
bool sub_value_int(const char *v, long long *out);
bool sub_value_bool(const char *v, bool *out);

/* v with blanks trimmed and a pair of enclosing double quotes dropped
 * (in place; returns a pointer into v). */
char *sub_strip_quotes(char *v);

/* The user's list "a.txt, b.txt" as HTCondor stores it: "a.txt,b.txt". */
void sub_put_list(classad *ad, const char *attr, const char *v);

/* HTCondor's reading of a size: a number (a fraction allowed) with an
 * optional unit K, M, G or T (B may follow), in units of base (bytes
 * when a unit is given, base bytes when not), rounded up.  A character
 * of seps (NULL: none) may end it early; *end (may be NULL) is then
 * where it stopped, *unit (may be NULL) the unit letter or 0. */
bool sub_size_value(const char *v, long long base, const char *seps,
		    long long *out, char *unit, const char **end);

/* Expression text parsed (a new reference, NULL when it does not
 * parse), through c->exprs: the jobs of a submission mostly repeat the
 * same texts. */
classad_expr *sub_parse_expr(const struct sub_job_ctx *c, const char *text);

/* Inserts expression text as attr, or fails (KS_EPARSE) with HTCondor's
 * parse error message, the parser's reason, and the line of the
 * description that set submit command key (or attr, its other name; key
 * NULL: a value of the configuration's or one built from several). */
int sub_put_expr(const struct sub_job_ctx *c, classad *ad, const char *attr,
		 const char *text, const char *key, struct ks_err *err);

/* Where command name (else alt, its other name; NULL allowed) was set
 * for this job: the line, and *src the file holding it; 0 and *src NULL
 * when no line set it (a default). */
int sub_where(const struct sub_job_ctx *c, const char *name, const char *alt,
	      const char **src);

/* The error for expression text of attr that does not parse (why: the
 * parser's error), at line of src (0: src alone names where it came
 * from; src NULL: nothing to name).  Returns KS_EPARSE. */
int sub_expr_error(struct ks_err *err, int line, const char *src,
		   const char *attr, const char *text,
		   const struct ks_err *why);

/* The file size of path (a directory: of what it holds) in KiB, rounded
 * up, as HTCondor counts a job's files; 0 for a URL or what cannot be
 * read.  path is taken from iwd (NULL: the current directory) when
 * relative.  Directories are walked within c's budget (sub_walk_take()). */
long long sub_file_kb(const struct sub_job_ctx *c, const char *iwd,
		      const char *path);

/* base.c: what every job ad starts with (HTCondor's base job ad): its
 * types, QDate, JobSubmitMethod, an undefined Owner (the schedd sets it
 * from the submitter's identity), the counters the schedd keeps, the
 * SUBMIT_ATTRS / SUBMIT_EXPRS / SYSTEM_SUBMIT_ATTRS knobs that name no
 * +attr, and the versions. */
void sub_set_base(const struct sub_job_ctx *c, classad *ad);

/* base.c: the SUBMIT_ATTRS knobs named with + or MY., which win over
 * every command (set after them, before the description's own +attrs). */
int sub_set_forced_submit_attrs(const struct sub_job_ctx *c, classad *ad,
				struct ks_err *err);

/* transfer.c: should_transfer_files and when_to_transfer_output (checked
 * against each other as HTCondor does), the input and output files and
 * their remaps, FileSystemDomain for a job that may use the shared file
 * system, and the sizes: DiskUsage and TransferInputSizeMB from the
 * executable's and the input files' (ExecutableSize already set). */
int sub_set_transfer(const struct sub_job_ctx *c, classad *ad, int universe,
		     int topping, struct ks_err *err);

/* extras.c: commands set in HTCondor's order around the ones job.c does
 * itself.  Each returns 0, or an error (err filled, HTCondor's words). */
int sub_set_stdio(const struct sub_job_ctx *c, classad *ad, int which,
		  const char *file, struct ks_err *err);
int sub_set_notification(const struct sub_job_ctx *c, classad *ad,
			 struct ks_err *err);
int sub_set_kill_sigs(const struct sub_job_ctx *c, classad *ad,
		      int universe, struct ks_err *err);
int sub_set_limits_and_group(const struct sub_job_ctx *c, classad *ad,
			     struct ks_err *err);
int sub_set_simple(const struct sub_job_ctx *c, classad *ad,
		   struct ks_err *err);
/* ExecutableSize (the executable's size, KiB; a vm job's is its memory,
 * set by sub_set_vm()) and ImageSize (image_size, else the same). */
int sub_set_image_size(const struct sub_job_ctx *c, classad *ad,
		       int universe, const char *grid, struct ks_err *err);
int sub_set_auto(const struct sub_job_ctx *c, classad *ad, int universe,
		 struct ks_err *err);

/* policy.c: periodic and on-exit policy, leave_in_queue, retries, and job
 * deferral. */
int sub_set_policy(const struct sub_job_ctx *c, classad *ad,
		   struct ks_err *err);
int sub_set_deferral(const struct sub_job_ctx *c, classad *ad,
		     int universe, struct ks_err *err);

/* RequestMemory or RequestDisk (attr) from its command's text (given),
 * or the pool's default (whose missing unit goes unchecked): a size, or else an expression ("undefined": none);
 * with a size, what the job asks for after an eviction for using too
 * much: "size, size..." or retry_request_memory / _max / _increase,
 * retry_request_disk (HTCondor's TransformBody_<attr> and
 * TransformOnEvict). */
int sub_set_request_size(const struct sub_job_ctx *c, classad *ad,
			 const char *attr, const char *text, bool given,
			 struct ks_err *err);

/* on_evict_checks: the job's own transforms on eviction, each named tag
 * with its body in transform_body_<tag>. */
int sub_set_on_evict(const struct sub_job_ctx *c, classad *ad,
		     struct ks_err *err);

/* files.c: java_vm_args / java_vm_arguments / java_vm_arguments2
 * (JavaVMArgs, JavaVMArguments). */
int sub_set_java_vm_args(const struct sub_job_ctx *c, classad *ad,
			 struct ks_err *err);

/* files.c: the tool daemon (tool_daemon_cmd and the commands that go
 * with it, suspend_job_at_exec among them). */
int sub_set_tdp(const struct sub_job_ctx *c, classad *ad,
		struct ks_err *err);

/* creds.c: x509userproxy and use_x509userproxy,
 * delegate_job_gsi_credentials_lifetime, use_scitokens and
 * scitokens_file. */
int sub_set_credentials(const struct sub_job_ctx *c, classad *ad,
			struct ks_err *err);

/* creds.c: OAuthServicesNeeded from use_oauth_services and the
 * <service>_oauth_permissions / _resource / _options[_<handle>]
 * commands. */
void sub_set_oauth(const struct sub_job_ctx *c, classad *ad);

/* vm.c: a vm job's attributes (vm_type, vm_memory, ... and the xen_*
 * commands). */
int sub_set_vm(const struct sub_job_ctx *c, classad *ad,
	       struct ks_err *err);

/* vm.c: a vm job's file transfer: should_transfer_files YES and
 * when_to_transfer_output ON_EXIT (ON_EXIT_OR_EVICT with vm_checkpoint)
 * unless given (*should, *when: new strings or NULL, replaced); an error
 * for checkpoint and networking without ON_EXIT_OR_EVICT. */
int sub_vm_transfer(const struct sub_job_ctx *c, char **should,
		    char **when, struct ks_err *err);

/* creds.c: name as a path from the job's Iwd (made absolute, "//"
 * squeezed), as HTCondor names the files of a job's commands.  New
 * string. */
char *sub_job_path(const classad *ad, const char *name);

/* vm.c: whether v is a comma-separated list (one item at least) whose
 * items each have min to max fields separated by ':'. */
bool sub_colon_list_ok(const char *v, int min, int max);

/* grid.c: a grid job's type, the first word of grid_resource (*type: new
 * string, NULL when universe is not 9), or an error for a missing
 * grid_resource or a type HTCondor does not know. */
int sub_grid_type(const struct sub_job_ctx *c, int universe, char **type,
		  struct ks_err *err);

/* Whether the job's executable is only a name (ec2, gce and azure). */
bool sub_grid_exe_is_name(const char *type);

/* grid.c: grid_resource and the batch_*, arc_*, ec2_*, gce_*, azure_*
 * and cloud_label_* commands of a grid job of type type. */
int sub_set_grid(const struct sub_job_ctx *c, classad *ad, const char *type,
		 struct ks_err *err);

/* Whether a grid job of type type has only the user's Requirements (or
 * TRUE): all but Condor-C, and Condor-C too without
 * SUBMIT_GENERATE_CONDOR_C_REQUIREMENTS. */
bool sub_grid_plain_requirements(const struct sub_job_ctx *c,
				 const char *type);

/* Remote_Universe and Remote_Remote_Universe (a universe's name or
 * number). */
int sub_set_remote_universe(const struct sub_job_ctx *c, classad *ad,
			    struct ks_err *err);

/* extras.c, too: the docker and container universes, the parallel universe
 * and Requirements.  A docker or container job is a vanilla (or local)
 * job with a topping. */
enum { SUB_PLAIN, SUB_DOCKER, SUB_CONTAINER };

/* A universe's number (and *topping), or -1 for none of HTCondor's. */
int sub_universe_of(const char *name, int *topping);

/* The image checks and attributes of a docker or container job; an image
 * given to a vanilla or local job makes it a container job (*topping). */
int sub_set_container(const struct sub_job_ctx *c, classad *ad,
		      int universe, int *topping, struct ks_err *err);

/* A container job's image file joins its input files: the list inputs
 * ("a,b"), its size (KiB, from iwd) added to *kb; an image that is not
 * sent (a repository, one on CONTAINER_SHARED_FS, transfer_container
 * false) is only noted (ContainerImageSource).  Returns 0. */
int sub_set_container_transfer(const struct sub_job_ctx *c, classad *ad,
			       struct classad_buf *inputs, long long *kb,
			       const char *iwd, struct ks_err *err);

/* machine_count and what a parallel job (or one that wants parallel
 * scheduling) needs. */
int sub_set_parallel(const struct sub_job_ctx *c, classad *ad, int universe,
		     struct ks_err *err);

/* The Requirements HTCondor writes: start (the user's, in parentheses,
 * and the pool's APPEND_REQUIREMENTS; may be NULL), then its clauses for the universe and the ad's requests and transfers, less
 * those for the machine attributes the user's expression reads (custom:
 * SUBMIT_GENERATE_CUSTOM_RESOURCE_REQUIREMENTS, clauses for the requests
 * other than cpus, disk, memory and GPUs).  *out: a new string.  Returns
 * 0, or an error for a user's expression that reads Requirements. */
int sub_requirements(const classad *ad, const char *user, int universe,
		     int topping, bool custom, char **out, struct ks_err *err);

/* With a GPU request: RequireGPUs completed by the clauses of the
 * GPUsMin/MaxCapability, GPUsMinMemory and GPUsMinRuntime the job has (as
 * HTCondor does once the job's own attributes are in).  Returns 0, or an
 * error when the whole does not parse. */
int sub_gpus_require(const struct sub_job_ctx *c, classad *ad,
		     struct ks_err *err);

/* each.c: makes every job of the description, in order, with the given
 * cluster id and submission time now (QDate), and hands each (a new ad,
 * now the callee's) to fn; stops at the first error (fn's, or a job that
 * cannot be made, err filled).  *njobs counts the jobs made.  The ads are
 * the same for -dry-run and for a schedd.  Returns 0 or the error. */
typedef int (*sub_job_fn)(void *arg, classad *ad, struct ks_err *err);
int sub_each_job(const ks_config *cfg, const struct sub_file *sf,
		 long cluster, const char *iwd, const char *user,
		 long long now, sub_job_fn fn, void *arg, long *njobs,
		 struct ks_err *err);

/* Whether the description asks for late materialization (max_materialize,
 * max_idle or materialize_max_idle before its queue statement): 0 with
 * *factory set, or an error for a value that is no integer, or for more
 * than one queue statement with it. */
int sub_factory(const ks_config *cfg, const struct sub_file *sf,
		const char *iwd, const char *user, bool *factory,
		struct ks_err *err);

/* Submits the description's jobs to the schedd (name, or this host's;
 * pool: the collector to ask) as one cluster, printing what HTCondor's
 * condor_submit prints (verbose: each job's ad instead of a dot; stdin:
 * the description came from standard input).  Returns the exit status. */
int sub_send(const ks_config *cfg, const struct sub_file *sf, const char *iwd,
	     const char *user, long long now, const char *name,
	     const char *pool, bool terse, bool verbose, bool stdin_file);

/* Whether unparsed expression e has a conditional (a ? b : c), or with
 * oror a ||, at its top (outside parentheses and strings): it then needs
 * parentheses to be one side of || (a conditional) or of && (either);
 * HTCondor's ?: binds loosest of all. */
bool sub_top_level_op(const char *e, bool oror);

/* A boolean command (or its other name alt), def when not given, as
 * HTCondor's submit_param_bool reads it (true, false, 1, 0 or an
 * expression); any other value is an error: 0 or KS_EINVAL with err
 * filled. */
/* Arguments in the quoted (new) syntax, v with its double quotes, parsed
 * and written back as HTCondor writes them: *joined is a new string, or
 * NULL when v holds no word.  Returns 0, or -1 (and *joined NULL) for a
 * quote left open. */
int sub_args_v2(const char *v, char **joined);

/* HTCondor's error for a command whose value is not a boolean; returns
 * KS_EINVAL. */
int sub_bad_bool(struct ks_err *err, const char *key, const char *v);

int sub_param_bool(const struct sub_job_ctx *c, const char *key,
		   const char *alt, bool def, bool *out, struct ks_err *err);

#endif
