#!/bin/sh
# cron_job.sh: the cron jobs test_cron.c runs.  The first argument says
# what to do; the ones after it are that action's.
action=$1
shift
case $action in
emit)	# the lines of a file, as they are
	cat "$1" ;;
argv)	# this shell's own argv, as the startd gave it (run as /bin/sh cron_job.sh argv ...)
	printf 'Arg0 = "%s"\n' "$(tr '\000' '\n' < /proc/$$/cmdline | head -n 1)"
	printf 'Arg1 = "%s"\n' "$1"
	printf 'Arg2 = "%s"\n' "$2"
	printf 'Argc = %d\n' $# ;;
env)	# what the environment and the working directory hold
	printf 'Foo = "%s"\n' "$FOO"
	printf 'Bar = "%s"\n' "$BAR"
	printf 'Cwd = "%s"\n' "$(pwd)"
	printf 'Version = "%s"\n' "$STARTD_INTERFACE_VERSION"
	printf 'CronName = "%s"\n' "$STARTD_CRON_NAME"
	printf 'HasPath = %s\n' "$( [ -n "$PATH" ] && echo true || echo false)" ;;
count)	# one more line in the file; the count as output
	echo run >> "$1"
	printf 'Runs = %d\n' "$(wc -l < "$1")" ;;
sleep)	# a start mark, a nap, then output
	echo start >> "$2"
	sleep "$1"
	echo 'Done = true' ;;
term)	# notes SIGTERM and ends
	trap 'echo term >> "$1"; exit 3' TERM
	echo start >> "$1"
	sleep 30 &
	wait ;;
ignoreterm)	# lives on through SIGTERM (its sleep too)
	trap '' TERM
	echo start >> "$1"
	sleep 30 ;;
hup)	# a first ad, then a second one on SIGHUP
	trap 'echo "Hupped = true"; echo "-"' HUP
	echo 'Ready = true'
	echo '-'
	while :; do sleep 0.05; done ;;
stream)	# two ads while running, then a long nap
	echo 'Step = 1'
	echo '- update:false'
	sleep 0.3
	echo 'Step = 2'
	echo '-'
	sleep 30 ;;
partial)	# a line in two writes, and a last line without its newline
	printf 'A = '
	sleep 0.2
	printf '1\nB = 2' ;;
long)	# a line longer than 64 KiB, then a good one
	head -c 70000 /dev/zero | tr '\000' 'x'
	echo
	echo 'Short = 1' ;;
fail)	# output, standard error, and a failure
	echo 'Bad = 1'
	echo 'bad things happened' >&2
	exit 3 ;;
stderr)	# output and standard error, and success
	echo 'Good = 1'
	echo 'a warning on stderr' >&2 ;;
forever)	# never ends by itself
	echo start >> "$1"
	exec sleep 60 ;;
*)	echo "cron_job.sh: unknown action '$action'" >&2
	exit 2 ;;
esac
