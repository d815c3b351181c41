package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// checkKubernetes decodes every manifest under deploy/ strictly into the
// Kubernetes API types (an unknown or misplaced field, a wrong type or a bad
// quantity fails, as the API server's strict field validation would), then
// checks the sharded run: an Indexed Job whose completions, parallelism and
// -shard $(JOB_COMPLETION_INDEX)/N agree, each shard writing its own folder
// of a ReadWriteMany claim, and a merge Job over the same N folders.
func checkKubernetes(r *repo) (string, []string) {
	var p problems
	files, _ := filepath.Glob(r.path("deploy/*.yaml"))
	more, _ := filepath.Glob(r.path("deploy/*.yml"))
	files = append(files, more...)
	if len(files) == 0 {
		p.add("no manifests in deploy/")
		return "", p
	}
	var jobs []*batchv1.Job
	claims := map[string]*corev1.PersistentVolumeClaim{}
	docs := 0
	for _, f := range files {
		rel, _ := filepath.Rel(r.root, f)
		data, err := os.ReadFile(f)
		if err != nil {
			p.add("%v", err)
			continue
		}
		rd := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		for n := 1; ; n++ {
			doc, err := rd.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				p.add("%s: %v", rel, err)
				break
			}
			if len(bytes.TrimSpace(stripComments(doc))) == 0 {
				continue
			}
			docs++
			where := fmt.Sprintf("%s (document %d)", rel, n)
			var tm metav1.TypeMeta
			if err := yaml.Unmarshal(doc, &tm); err != nil {
				p.add("%s: %v", where, err)
				continue
			}
			switch tm.APIVersion + " " + tm.Kind {
			case "batch/v1 Job":
				var j batchv1.Job
				if err := yaml.UnmarshalStrict(doc, &j); err != nil {
					p.add("%s: Job: %v", where, err)
					continue
				}
				checkName(&p, where, j.Name)
				jobs = append(jobs, &j)
			case "v1 PersistentVolumeClaim":
				var c corev1.PersistentVolumeClaim
				if err := yaml.UnmarshalStrict(doc, &c); err != nil {
					p.add("%s: PersistentVolumeClaim: %v", where, err)
					continue
				}
				checkName(&p, where, c.Name)
				claims[c.Name] = &c
			default:
				p.add("%s: unexpected %q %q (deploy/ holds Jobs and PersistentVolumeClaims)", where, tm.APIVersion, tm.Kind)
			}
		}
	}

	var shards, merge *batchv1.Job
	for _, j := range jobs {
		if j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == batchv1.IndexedCompletion {
			if shards != nil {
				p.add("two Indexed Jobs (%s, %s): want one", shards.Name, j.Name)
			}
			shards = j
		} else {
			if merge != nil {
				p.add("two Jobs that are not Indexed (%s, %s): want one merge Job", merge.Name, j.Name)
			}
			merge = j
		}
	}
	if shards == nil || merge == nil {
		p.add("want an Indexed Job of shards and a merge Job in deploy/")
		return "", p
	}
	n := checkShardJob(r, &p, shards, claims)
	checkMergeJob(r, &p, merge, claims, shards, n)
	return fmt.Sprintf("%d documents decode strictly; Indexed Job %s runs %d shards, Job %s merges them, claim ReadWriteMany", docs, shards.Name, n, merge.Name), p
}

func stripComments(doc []byte) []byte {
	var out [][]byte
	for _, line := range bytes.Split(doc, []byte("\n")) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			out = append(out, line)
		}
	}
	return bytes.Join(out, []byte("\n"))
}

func checkName(p *problems, where, name string) {
	if name == "" {
		p.add("%s: no metadata.name", where)
		return
	}
	for _, e := range validation.IsDNS1123Subdomain(name) {
		p.add("%s: metadata.name %q: %s", where, name, e)
	}
}

var shardArg = regexp.MustCompile(`^\$\(JOB_COMPLETION_INDEX\)/([0-9]+)$`)

// checkShardJob checks the Indexed Job and returns its number of shards.
func checkShardJob(r *repo, p *problems, j *batchv1.Job, claims map[string]*corev1.PersistentVolumeClaim) int {
	where := "Job " + j.Name
	spec := j.Spec
	n := 0
	if spec.Completions == nil || spec.Parallelism == nil {
		p.add("%s: completions and parallelism must both be set (to the number of shards)", where)
	} else {
		n = int(*spec.Completions)
		if *spec.Parallelism != *spec.Completions {
			p.add("%s: parallelism %d != completions %d: every shard should run at once", where, *spec.Parallelism, *spec.Completions)
		}
	}
	pod := spec.Template.Spec
	if pod.RestartPolicy != corev1.RestartPolicyNever && pod.RestartPolicy != corev1.RestartPolicyOnFailure {
		p.add("%s: restartPolicy must be Never or OnFailure, got %q", where, pod.RestartPolicy)
	}
	if spec.PodFailurePolicy != nil {
		if pod.RestartPolicy != corev1.RestartPolicyNever {
			p.add("%s: podFailurePolicy needs restartPolicy Never", where)
		}
		for _, rule := range spec.PodFailurePolicy.Rules {
			if rule.Action == batchv1.PodFailurePolicyActionFailIndex && spec.BackoffLimitPerIndex == nil {
				p.add("%s: podFailurePolicy action FailIndex needs backoffLimitPerIndex", where)
			}
			if oe := rule.OnExitCodes; oe != nil && oe.ContainerName != nil && !hasContainer(pod, *oe.ContainerName) {
				p.add("%s: podFailurePolicy names container %q, which the pod does not have", where, *oe.ContainerName)
			}
		}
	}
	if len(pod.Containers) != 1 {
		p.add("%s: want one container, got %d", where, len(pod.Containers))
		return n
	}
	c := pod.Containers[0]
	checkImage(r, p, where, c)
	checkVars(p, where, c, true)
	args := c.Args
	if len(c.Command) > 0 {
		p.add("%s: no command: the image's ENTRYPOINT (difffuzz run with /data defaults) must run, args after it", where)
	}
	if r.dockerfile != nil && len(r.dockerfile.entrypoint) > 1 {
		r.invocations = append(r.invocations, invocation{where: "deploy " + where,
			args: append(literals(r.dockerfile.entrypoint[1:]), k8sWords(args)...)})
	}
	words := k8sWords(args)
	if v, ok := flagValue(words, "shard"); !ok {
		p.add("%s: args must pass -shard $(JOB_COMPLETION_INDEX)/N", where)
	} else if m := shardArg.FindStringSubmatch(v.text); m == nil {
		p.add("%s: -shard %q, want $(JOB_COMPLETION_INDEX)/N", where, v.text)
	} else if got, _ := strconv.Atoi(m[1]); got != n {
		p.add("%s: -shard .../%d but completions is %d", where, got, n)
	}
	if _, ok := flagValue(words, "seed"); !ok {
		p.add("%s: args must pass -seed: every shard must share one", where)
	}
	for _, f := range []string{"corpus", "report", "junit", "summary"} {
		v, ok := flagValue(words, f)
		if !ok || !strings.Contains(v.text, "$(JOB_COMPLETION_INDEX)") || !strings.HasPrefix(v.text, "/data/") {
			p.add("%s: -%s must be a path of its own per shard under /data/ (with $(JOB_COMPLETION_INDEX)), got %q", where, f, v.text)
		}
	}
	checkDataClaim(p, where, pod, c, claims)
	return n
}

// checkMergeJob checks the merge Job against the shards.
func checkMergeJob(r *repo, p *problems, j *batchv1.Job, claims map[string]*corev1.PersistentVolumeClaim, shards *batchv1.Job, n int) {
	where := "Job " + j.Name
	pod := j.Spec.Template.Spec
	if pod.RestartPolicy != corev1.RestartPolicyNever && pod.RestartPolicy != corev1.RestartPolicyOnFailure {
		p.add("%s: restartPolicy must be Never or OnFailure, got %q", where, pod.RestartPolicy)
	}
	if len(pod.Containers) != 1 {
		p.add("%s: want one container, got %d", where, len(pod.Containers))
		return
	}
	c := pod.Containers[0]
	checkImage(r, p, where, c)
	checkVars(p, where, c, false)
	var invs []invocation
	switch {
	case len(c.Command) >= 2 && slices.Contains([]string{"sh", "/bin/sh", "bash", "/bin/bash"}, c.Command[0]) && c.Command[len(c.Command)-1] == "-c":
		if len(c.Args) != 1 {
			p.add("%s: %s -c wants the script as its one argument", where, c.Command[0])
			return
		}
		var err error
		if invs, err = shellInvocations(c.Args[0], "deploy "+where+" script"); err != nil {
			p.add("%s: script: %v", where, err)
			return
		}
	case len(c.Command) > 0:
		invs = []invocation{{where: "deploy " + where, args: k8sWords(append(c.Command[1:], c.Args...))}}
	default:
		p.add("%s: want command difffuzz corpus merge ... (or a shell script running it)", where)
		return
	}
	merges := 0
	for _, inv := range invs {
		if len(inv.args) > 1 && inv.args[0].text == "corpus" && inv.args[1].text == "merge" {
			merges++
		}
	}
	if merges != 1 {
		p.add("%s: want one difffuzz corpus merge, found %d", where, merges)
	}
	r.invocations = append(r.invocations, invs...)
	envs := env(c)
	if v, ok := envs["SHARDS"]; ok && v != strconv.Itoa(n) {
		p.add("%s: SHARDS=%s but %s runs %d shards", where, v, shards.Name, n)
	}
	if seed, ok := envs["DIFFFUZZ_SEED"]; ok {
		if sseed := env(shards.Spec.Template.Spec.Containers[0])["DIFFFUZZ_SEED"]; sseed != seed {
			p.add("%s: DIFFFUZZ_SEED=%s but %s's is %s: merge the run the shards made", where, seed, shards.Name, sseed)
		}
	}
	checkDataClaim(p, where, pod, c, claims)
	if claimOf(pod, "/data", c) != claimOf(shards.Spec.Template.Spec, "/data", shards.Spec.Template.Spec.Containers[0]) {
		p.add("%s: mounts a different claim at /data than %s", where, shards.Name)
	}
}

func hasContainer(pod corev1.PodSpec, name string) bool {
	for _, c := range pod.Containers {
		if c.Name == name {
			return true
		}
	}
	return false
}

func env(c corev1.Container) map[string]string {
	m := map[string]string{}
	for _, e := range c.Env {
		m[e.Name] = e.Value
	}
	return m
}

// checkVars checks that every $(VAR) in command and args is defined in the
// container's env (Kubernetes leaves an undefined one as it is, silently),
// or is JOB_COMPLETION_INDEX in an Indexed Job.
func checkVars(p *problems, where string, c corev1.Container, indexed bool) {
	defined := env(c)
	for _, s := range append(append([]string{}, c.Command...), c.Args...) {
		for _, m := range k8sVar.FindAllStringSubmatch(s, -1) {
			if _, ok := defined[m[1]]; ok || (indexed && m[1] == "JOB_COMPLETION_INDEX") {
				continue
			}
			p.add("%s: $(%s) is not defined in env, so Kubernetes would pass it literally", where, m[1])
		}
	}
}

func checkImage(r *repo, p *problems, where string, c corev1.Container) {
	if c.Image == "" {
		p.add("%s: container %s has no image", where, c.Name)
	} else if r.composeInfo != nil && r.composeInfo.image != "" && c.Image != r.composeInfo.image {
		p.add("%s: image %q differs from docker-compose.yml's %q", where, c.Image, r.composeInfo.image)
	}
}

// claimOf returns the claim mounted at mountPath in container c, or "".
func claimOf(pod corev1.PodSpec, mountPath string, c corev1.Container) string {
	for _, m := range c.VolumeMounts {
		if m.MountPath != mountPath {
			continue
		}
		for _, v := range pod.Volumes {
			if v.Name == m.Name && v.PersistentVolumeClaim != nil {
				return v.PersistentVolumeClaim.ClaimName
			}
		}
	}
	return ""
}

func checkDataClaim(p *problems, where string, pod corev1.PodSpec, c corev1.Container, claims map[string]*corev1.PersistentVolumeClaim) {
	name := claimOf(pod, "/data", c)
	if name == "" {
		p.add("%s: /data must be a PersistentVolumeClaim mount", where)
		return
	}
	claim, ok := claims[name]
	if !ok {
		p.add("%s: claim %q is not defined in deploy/", where, name)
		return
	}
	if !slices.Contains(claim.Spec.AccessModes, corev1.ReadWriteMany) {
		p.add("PersistentVolumeClaim %s: want accessModes ReadWriteMany (shards on several nodes write at once), got %v", name, claim.Spec.AccessModes)
	}
}
