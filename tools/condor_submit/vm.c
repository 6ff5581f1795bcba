/* vm.c: the vm universe's commands as HTCondor 25's condor_submit reads
 * them: vm_type, vm_memory, vm_vcpus, vm_checkpoint, vm_networking (and
 * its type), vm_vnc, vm_macaddr, vm_no_output_vm, vm_disk and the xen_*
 * commands.  The job's executable is only the virtual machine's name. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "submit.h"

/* A boolean command set as attr, def when not given. */
static int put_vm_bool(const struct sub_job_ctx *c, classad *ad,
		       const char *key, const char *attr, bool *out,
		       struct ks_err *err)
{
	int rc = sub_param_bool(c, key, attr, false, out, err);
	if (!rc)
		classad_insert_bool(ad, attr, *out);
	return rc;
}

bool sub_colon_list_ok(const char *v, int min, int max)
{
	char *copy = ks_xstrdup(v), *save = NULL;
	bool any = false, ok = true;
	for (char *t = strtok_r(copy, ",", &save); t && ok;
	     t = strtok_r(NULL, ",", &save)) {
		t = sub_strip_quotes(t);
		if (!*t)
			continue;
		any = true;
		int parts = 1;
		for (const char *p = t; *p; p++)
			parts += *p == ':';
		ok = parts >= min && parts <= max;
	}
	free(copy);
	return any && ok;
}

static int set_xen(const struct sub_job_ctx *c, classad *ad,
		   struct ks_err *err)
{
	char *kernel = sub_param(c, "xen_kernel", "VMPARAM_Xen_Kernel");
	if (!kernel)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "'xen_kernel' cannot be found.\nPlease specify "
				  "'xen_kernel' for the xen virtual machine in your "
				  "submit description file.\nxen_kernel must be one "
				  "of \"included\", \"vmx\", <file-name>.");
	classad_insert_string(ad, "VMPARAM_Xen_Kernel", kernel);
	/* "included" and "vmx" (hardware virtualization) are no kernel
	 * file of the job's, which then needs no root device */
	bool file = strcasecmp(kernel, "included") && strcasecmp(kernel, "vmx");
	if (!strcasecmp(kernel, "vmx"))
		classad_insert_bool(ad, "JobVMHardwareVT", true);
	free(kernel);
	int rc = 0;
	char *v = sub_param(c, "xen_initrd", NULL);
	if (v && !file)
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"To use xen_initrd, xen_kernel should be a real "
				"kernel file.");
	else if (v)
		classad_insert_string(ad, "VMPARAM_Xen_Initrd", v);
	free(v);
	if (!rc && file) {
		v = sub_param(c, "xen_root", NULL);
		if (!v)
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"'xen_root' cannot be found.\nPlease specify "
					"'xen_root' for the xen virtual machine in "
					"your submit description file.");
		else
			classad_insert_string(ad, "VMPARAM_Xen_Root", v);
		free(v);
	}
	if (!rc && (v = sub_param(c, "xen_kernel_params",
				  "VMPARAM_Xen_Kernel_Params"))) {
		/* a quote of either kind at each end goes */
		char *p = v;
		size_t n = strlen(p);
		if (n && (p[n - 1] == '"' || p[n - 1] == '\''))
			p[--n] = '\0';
		if (*p == '"' || *p == '\'')
			p++;
		classad_insert_string(ad, "VMPARAM_Xen_Kernel_Params", p);
		free(v);
	}
	return rc;
}

int sub_set_vm(const struct sub_job_ctx *c, classad *ad,
	       struct ks_err *err)
{
	char *type = sub_param(c, "vm_type", "JobVMType");
	for (char *p = type; p && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	if (type)
		classad_insert_string(ad, "JobVMType", type);
	bool ckpt, net, vnc;
	int rc;
	if ((rc = put_vm_bool(c, ad, "vm_checkpoint", "JobVMCheckpoint", &ckpt,
			      err)) ||
	    (rc = put_vm_bool(c, ad, "vm_networking", "JobVMNetworking", &net,
			      err)))
		goto out;
	char *v;
	if (net && (v = sub_param(c, "vm_networking_type",
				  "JobVMNetworkingType"))) {
		classad_insert_string(ad, "JobVMNetworkingType", v);
		free(v);
	}
	if ((rc = put_vm_bool(c, ad, "vm_vnc", "JobVMVNCConsole", &vnc, err)))
		goto out;
	if (!(v = sub_param(c, "vm_memory", "JobVMMemory"))) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"vm_memory cannot be found.\nPlease specify "
				"vm_memory for vm universe in your submit "
				"description file.");
		goto out;
	}
	long long mb = 0;
	if (!sub_size_value(v, 1024 * 1024, NULL, &mb, NULL, NULL) || mb <= 0)
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"vm_memory is incorrectly specified\nFor example, "
				"for vm memroy of 128 Megabytes,\nyou need to use "
				"128 in your submit description file.");
	free(v);
	if (rc)
		goto out;
	classad_insert_int(ad, "JobVMMemory", mb);
	classad_insert_int(ad, "ExecutableSize", mb * 1024);
	long cpus = 1;
	if ((v = sub_param(c, "vm_vcpus", "JobVM_VCPUS"))) {
		cpus = strtol(v, NULL, 10);
		free(v);
	}
	classad_insert_int(ad, "JobVM_VCPUS", cpus > 1 ? cpus : 1);
	if ((v = sub_param(c, "vm_macaddr", "JobVM_MACADDR"))) {
		classad_insert_string(ad, "JobVM_MACADDR", v);
		free(v);
	}
	if ((v = sub_param(c, "vm_no_output_vm", NULL))) {
		bool b;
		if (!sub_value_bool(v, &b))
			rc = sub_bad_bool(err, "vm_no_output_vm", v);
		else
			classad_insert_bool(ad, "VMPARAM_No_Output_VM", b);
		free(v);
		if (rc)
			goto out;
	}
	if (type && !strcmp(type, "xen") && (rc = set_xen(c, ad, err)))
		goto out;
	if (type && (!strcmp(type, "xen") || !strcmp(type, "kvm"))) {
		v = sub_param(c, "vm_disk", "VMPARAM_vm_Disk");
		if (!v)
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"'<vm>_disk' cannot be found.\nPlease specify "
					"'<vm>_disk' for the virtual machine in your "
					"submit description file.");
		/* "file:device:permission[:format]" */
		else if (!sub_colon_list_ok(v, 3, 4))
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"'vm_disk' has incorrect format.\nThe format "
					"shoud be like \"<filename>:<devicename>:"
					"<permission>\"\ne.g.> For single disk: "
					"<vm>_disk = filename1:hda1:w\n      For "
					"multiple disks: <vm>_disk = filename1:hda1:w,"
					"filename2:hda2:w");
		else
			classad_insert_string(ad, "VMPARAM_vm_Disk", v);
		free(v);
	} else if (type && !strcmp(type, "vmware")) {
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"A vm_type of 'vmware' is no longer supported");
	}
out:
	free(type);
	return rc;
}

int sub_vm_transfer(const struct sub_job_ctx *c, char **should,
		    char **when, struct ks_err *err)
{
	bool ckpt = false, net = false;
	int rc = sub_param_bool(c, "vm_checkpoint", "JobVMCheckpoint", false,
				&ckpt, err);
	if (!rc && ckpt)
		rc = sub_param_bool(c, "vm_networking", "JobVMNetworking", false,
				    &net, err);
	if (rc)
		return rc;
	/* a checkpoint with networking needs output sent on eviction too */
	if (ckpt && net &&
	    (!*when || strcasecmp(*when, "ON_EXIT_OR_EVICT")))
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "You explicitly requested both VM checkpoint "
				  "and VM networking. However, VM networking is "
				  "currently conflict with VM checkpoint. If you "
				  "still want to use both VM networking and VM "
				  "checkpoint, you explicitly must define "
				  "\"when_to_transfer_output = ON_EXIT_OR_EVICT\"");
	/* the virtual machine's files always travel */
	if (!*should)
		*should = ks_xstrdup("YES");
	if (!*when)
		*when = ks_xstrdup(ckpt ? "ON_EXIT_OR_EVICT" : "ON_EXIT");
	return 0;
}
