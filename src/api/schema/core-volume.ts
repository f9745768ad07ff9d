// core/v1 volumes: Volume and every volume source a pod may name, the projections, and the
// ephemeral PVC template.

import { PKG, struct, type SchemaDef } from './dsl.js';

const c = (short: string, description: string, fields: Record<string, string>, opts?: Parameters<typeof struct>[4]) =>
  struct(PKG.core, short, description, fields, opts);

const fsType = 's | Filesystem type to mount, e.g. ext4 or xfs; the host picks a default when empty.';
const readOnlyB = 'b | Mount the volume read-only. Defaults to false.';
const secretRefLocal = 'LocalObjectReference | Secret holding the credentials for this volume.';

/** The volume sources; Volume inlines them, so this list is shared with VolumeSource. */
const volumeSources: Record<string, string> = {
  hostPath: 'HostPathVolumeSource | A file or directory of the node, exposed to the container. For privileged system software; most pods should not use it.',
  emptyDir: 'EmptyDirVolumeSource | Scratch space that lives as long as the pod on its node.',
  gcePersistentDisk: 'GCEPersistentDiskVolumeSource | Deprecated: a GCE persistent disk attached to the node.',
  awsElasticBlockStore: 'AWSElasticBlockStoreVolumeSource | Deprecated: an AWS EBS disk attached to the node.',
  gitRepo: 'GitRepoVolumeSource | Deprecated: a git repository cloned into an empty directory. Prefer an init container.',
  secret: 'SecretVolumeSource | The keys of a Secret, as files.',
  nfs: 'NFSVolumeSource | An NFS export mounted on the node.',
  iscsi: 'ISCSIVolumeSource | An iSCSI disk attached to the node.',
  glusterfs: 'GlusterfsVolumeSource | Deprecated: a GlusterFS volume mounted on the node.',
  persistentVolumeClaim: 'PersistentVolumeClaimVolumeSource | A PersistentVolumeClaim in the pod\'s namespace.',
  rbd: 'RBDVolumeSource | Deprecated: a Ceph RADOS block device attached to the node.',
  flexVolume: 'FlexVolumeSource | Deprecated: a volume provided by a FlexVolume driver.',
  cinder: 'CinderVolumeSource | Deprecated: an OpenStack Cinder volume attached to the node.',
  cephfs: 'CephFSVolumeSource | Deprecated: a CephFS filesystem mounted on the node.',
  flocker: 'FlockerVolumeSource | Deprecated: a Flocker dataset.',
  downwardAPI: 'DownwardAPIVolumeSource | Pod metadata and resource values, as files.',
  fc: 'FCVolumeSource | A Fibre Channel disk attached to the node.',
  azureFile: 'AzureFileVolumeSource | Deprecated: an Azure File share mounted on the node.',
  configMap: 'ConfigMapVolumeSource | The keys of a ConfigMap, as files.',
  vsphereVolume: 'VsphereVirtualDiskVolumeSource | Deprecated: a vSphere virtual disk attached to the node.',
  quobyte: 'QuobyteVolumeSource | Deprecated: a Quobyte volume mounted on the node.',
  azureDisk: 'AzureDiskVolumeSource | Deprecated: an Azure data disk attached to the node.',
  photonPersistentDisk: 'PhotonPersistentDiskVolumeSource | Deprecated: a Photon Controller persistent disk.',
  projected: 'ProjectedVolumeSource | Several sources (secrets, config maps, downward API, tokens) merged into one directory.',
  portworxVolume: 'PortworxVolumeSource | Deprecated: a Portworx volume attached to the node.',
  scaleIO: 'ScaleIOVolumeSource | Deprecated: a ScaleIO volume attached to the node.',
  storageos: 'StorageOSVolumeSource | Deprecated: a StorageOS volume attached to the node.',
  csi: 'CSIVolumeSource | An ephemeral volume provided by a CSI driver.',
  ephemeral: 'EphemeralVolumeSource | A volume from a PersistentVolumeClaim created for this pod and deleted with it.',
  image: 'ImageVolumeSource gate=ImageVolume | The content of an OCI image or artifact, mounted read-only.',
};

const keyToPathItems = '[]KeyToPath lt=atomic | Keys to project and the file path for each. When empty, every key becomes a file named after it.';
const defaultMode = 'i32 | Permission bits for the created files (0000-0777), e.g. 0644. Defaults to 0644.';

export const volumeSchemas: readonly SchemaDef[] = [
  c('Volume', 'A named volume that containers of the pod can mount. Exactly one source must be set.', {
    name: 's! | Name of the volume, a DNS label unique within the pod; volume mounts refer to it.',
    ...volumeSources,
  }),
  c('HostPathVolumeSource', 'A path on the node.', {
    path: 's! | Path on the node; a symlink is followed to its target.',
    type: 's enum=,BlockDevice,CharDevice,Directory,DirectoryOrCreate,File,FileOrCreate,Socket go=HostPathType | What must exist at the path. Empty performs no check.',
  }),
  c('EmptyDirVolumeSource', 'An initially empty directory that lives as long as the pod.', {
    medium: 's go=StorageMedium | Storage medium: empty for the node\'s default, or Memory for tmpfs.',
    sizeLimit: 'Quantity | Most storage the volume may use; counted against the pod\'s memory for the Memory medium.',
  }),
  c('GCEPersistentDiskVolumeSource', 'A GCE persistent disk; it must exist before use.', {
    pdName: 's! | Name of the disk in GCE.',
    fsType,
    partition: 'i32 | Partition to mount; 0 (default) mounts the whole disk.',
    readOnly: readOnlyB,
  }),
  c('AWSElasticBlockStoreVolumeSource', 'An AWS EBS disk; it must exist and be in the node\'s zone.', {
    volumeID: 's! | ID of the EBS volume.',
    fsType,
    partition: 'i32 | Partition to mount; 0 (default) mounts the whole disk.',
    readOnly: readOnlyB,
  }),
  c('GitRepoVolumeSource', 'A git repository cloned into the volume.', {
    repository: 's! | URL of the repository.',
    revision: 's | Commit hash to check out.',
    directory: 's | Target directory name, without "..". "." clones into the volume root; empty makes a subdirectory named after the repository.',
  }),
  c('SecretVolumeSource', 'The keys of a Secret, as files.', {
    secretName: 's | Name of the Secret in the pod\'s namespace.',
    items: keyToPathItems,
    defaultMode,
    optional: 'b | Whether the Secret or its keys may be missing.',
  }),
  c('KeyToPath', 'Maps one key to a file path within a volume.', {
    key: 's! | Key to project.',
    path: 's! | Relative path of the file; may not contain ".." or start with "..".',
    mode: 'i32 | Permission bits for this file (0000-0777); defaults to the volume\'s defaultMode.',
  }),
  c('NFSVolumeSource', 'An NFS export.', {
    server: 's! | Host name or IP address of the NFS server.',
    path: 's! | Path exported by the server.',
    readOnly: readOnlyB,
  }),
  c('ISCSIVolumeSource', 'An iSCSI disk, mounted read-write by one pod at a time.', {
    targetPortal: 's! | Target portal, IP or host with an optional port (default 3260).',
    iqn: 's! | iSCSI qualified name of the target.',
    lun: 'i32! | Logical unit number of the target.',
    iscsiInterface: 's | Interface name for the transport; defaults to "default" (tcp).',
    fsType,
    readOnly: readOnlyB,
    portals: '[]s lt=atomic | Additional target portals.',
    chapAuthDiscovery: 'b | Use CHAP authentication for discovery.',
    chapAuthSession: 'b | Use CHAP authentication for the session.',
    secretRef: 'LocalObjectReference | Secret with the CHAP credentials.',
    initiatorName: 's | Custom initiator name; a new interface <portal>:<volume name> is created for the connection.',
  }),
  c(
    'LocalObjectReference',
    'Refers to an object by name in the same namespace.',
    { name: 's | Name of the referent.' },
    { mapType: 'atomic' },
  ),
  c('GlusterfsVolumeSource', 'A GlusterFS volume.', {
    endpoints: 's! | Endpoints object giving the GlusterFS servers.',
    path: 's! | Name of the GlusterFS volume.',
    readOnly: readOnlyB,
  }),
  c('PersistentVolumeClaimVolumeSource', 'A PersistentVolumeClaim in the pod\'s namespace.', {
    claimName: 's! | Name of the claim.',
    readOnly: 'b | Force the mount to be read-only. Defaults to false.',
  }),
  c('RBDVolumeSource', 'A Ceph RADOS block device.', {
    monitors: '[]s! lt=atomic | Ceph monitor addresses.',
    image: 's! | Name of the RADOS image.',
    fsType,
    pool: 's | RADOS pool; defaults to rbd.',
    user: 's | RADOS user; defaults to admin.',
    keyring: 's | Keyring path for the user; defaults to /etc/ceph/keyring.',
    secretRef: 'LocalObjectReference | Secret with the user\'s key; overrides keyring.',
    readOnly: readOnlyB,
  }),
  c('FlexVolumeSource', 'A volume provided by an exec-based FlexVolume driver.', {
    driver: 's! | Name of the driver.',
    fsType: 's | Filesystem type; the default depends on the driver.',
    secretRef: 'LocalObjectReference | Secret passed to the driver scripts.',
    readOnly: readOnlyB,
    options: '{}s | Extra options for the driver.',
  }),
  c('CinderVolumeSource', 'An OpenStack Cinder volume; it must exist before use.', {
    volumeID: 's! | ID of the Cinder volume.',
    fsType,
    readOnly: readOnlyB,
    secretRef: 'LocalObjectReference | Secret with the parameters for connecting to OpenStack.',
  }),
  c('CephFSVolumeSource', 'A CephFS mount.', {
    monitors: '[]s! lt=atomic | Ceph monitor addresses.',
    path: 's | Path within the filesystem to mount; defaults to /.',
    user: 's | RADOS user; defaults to admin.',
    secretFile: 's | Path of the keyring for the user; defaults to /etc/ceph/user.secret.',
    secretRef: 'LocalObjectReference | Secret with the user\'s key; overrides secretFile.',
    readOnly: readOnlyB,
  }),
  c('FlockerVolumeSource', 'A Flocker dataset; set exactly one of the two fields.', {
    datasetName: 's | Name of the dataset (metadata); deprecated.',
    datasetUUID: 's | UUID of the dataset.',
  }),
  c('DownwardAPIVolumeSource', 'Pod fields and container resources, as files.', {
    items: '[]DownwardAPIVolumeFile lt=atomic | The files to create.',
    defaultMode,
  }),
  c('DownwardAPIVolumeFile', 'One downward API file.', {
    path: 's! | Relative path of the file; may not contain ".." or start with "..".',
    fieldRef: 'ObjectFieldSelector | Pod field to expose: metadata.name, metadata.namespace, metadata.labels, metadata.annotations or metadata.uid.',
    resourceFieldRef: 'ResourceFieldSelector | Container resource limit or request to expose (limits.cpu, requests.memory, ...).',
    mode: 'i32 | Permission bits for this file (0000-0777); defaults to the volume\'s defaultMode.',
  }),
  c(
    'ObjectFieldSelector',
    'Selects a field of the pod.',
    {
      apiVersion: 's | Version of the schema fieldPath is written in; defaults to v1.',
      fieldPath: 's! | Path of the field within that version.',
    },
    { mapType: 'atomic' },
  ),
  c(
    'ResourceFieldSelector',
    'Selects a resource limit or request of a container.',
    {
      containerName: 's | Container to read from; required for volumes, optional for environment variables.',
      resource: 's! | The resource, e.g. limits.cpu or requests.memory.',
      divisor: 'Quantity | Unit the value is expressed in; defaults to 1.',
    },
    { mapType: 'atomic' },
  ),
  c('FCVolumeSource', 'A Fibre Channel disk, mounted read-write by one pod at a time.', {
    targetWWNs: '[]s lt=atomic | World wide names of the targets.',
    lun: 'i32 | Logical unit number of the target.',
    fsType,
    readOnly: readOnlyB,
    wwids: '[]s lt=atomic | World wide identifiers of the volume; set either these or targetWWNs with lun.',
  }),
  c('AzureFileVolumeSource', 'An Azure File share.', {
    secretName: 's! | Secret with the storage account name and key.',
    shareName: 's! | Name of the share.',
    readOnly: readOnlyB,
  }),
  c('ConfigMapVolumeSource', 'The keys of a ConfigMap, as files.', {
    name: 's | Name of the ConfigMap in the pod\'s namespace.',
    items: keyToPathItems,
    defaultMode,
    optional: 'b | Whether the ConfigMap or its keys may be missing.',
  }),
  c('VsphereVirtualDiskVolumeSource', 'A vSphere virtual disk.', {
    volumePath: 's! | Path that identifies the disk.',
    fsType,
    storagePolicyName: 's | Storage policy based management profile name.',
    storagePolicyID: 's | ID of that storage policy.',
  }),
  c('QuobyteVolumeSource', 'A Quobyte volume.', {
    registry: 's! | Registry services, host:port pairs separated by commas.',
    volume: 's! | Name of an existing Quobyte volume.',
    readOnly: readOnlyB,
    user: 's | User to map volume access to; defaults to the service account user.',
    group: 's | Group to map volume access to; defaults to none.',
    tenant: 's | Tenant owning the volume in the backend.',
  }),
  c('AzureDiskVolumeSource', 'An Azure data disk.', {
    diskName: 's! | Name of the data disk in blob storage.',
    diskURI: 's! | URI of the data disk in blob storage.',
    cachingMode: 's enum=None,ReadOnly,ReadWrite go=AzureDataDiskCachingMode | Host caching mode.',
    fsType: 's | Filesystem type to mount; defaults to ext4.',
    readOnly: readOnlyB,
    kind: 's enum=Dedicated,Managed,Shared go=AzureDataDiskKind | Disk kind: Shared (several blob disks per account), Dedicated (one per account) or Managed.',
  }),
  c('PhotonPersistentDiskVolumeSource', 'A Photon Controller persistent disk.', {
    pdID: 's! | ID of the disk.',
    fsType,
  }),
  c('ProjectedVolumeSource', 'Several sources projected into one directory.', {
    sources: '[]VolumeProjection lt=atomic | The sources, applied in order.',
    defaultMode,
  }),
  c('VolumeProjection', 'One source of a projected volume; set exactly one field.', {
    secret: 'SecretProjection | Keys of a Secret.',
    downwardAPI: 'DownwardAPIProjection | Downward API files.',
    configMap: 'ConfigMapProjection | Keys of a ConfigMap.',
    serviceAccountToken: 'ServiceAccountTokenProjection | A token of the pod\'s service account.',
    clusterTrustBundle: 'ClusterTrustBundleProjection gate=ClusterTrustBundleProjection | Certificates of ClusterTrustBundle objects, concatenated into one file.',
  }),
  c('SecretProjection', 'Keys of a Secret in a projected volume.', {
    name: 's | Name of the Secret in the pod\'s namespace.',
    items: keyToPathItems,
    optional: 'b | Whether the Secret or its keys may be missing.',
  }),
  c('DownwardAPIProjection', 'Downward API files in a projected volume.', {
    items: '[]DownwardAPIVolumeFile lt=atomic | The files to create.',
  }),
  c('ConfigMapProjection', 'Keys of a ConfigMap in a projected volume.', {
    name: 's | Name of the ConfigMap in the pod\'s namespace.',
    items: keyToPathItems,
    optional: 'b | Whether the ConfigMap or its keys may be missing.',
  }),
  c('ServiceAccountTokenProjection', 'A service account token in a projected volume; the kubelet refreshes it before it expires.', {
    audience: 's | Intended audience of the token; defaults to the API server\'s identifier.',
    expirationSeconds: 'i64 | Requested lifetime in seconds; at least 600, defaults to one hour.',
    path: 's! | Relative path of the token file.',
  }),
  c('ClusterTrustBundleProjection', 'Certificates from ClusterTrustBundle objects, selected by name or by signer and labels.', {
    name: 's | Select one bundle by name; excludes signerName and labelSelector.',
    signerName: 's | Select the bundles of this signer.',
    labelSelector: 'LabelSelector | With signerName, only bundles matching these labels.',
    optional: 'b | Whether missing bundles are tolerated (an empty file is written).',
    path: 's! | Relative path of the file.',
  }),
  c('PortworxVolumeSource', 'A Portworx volume.', {
    volumeID: 's! | ID of the volume.',
    fsType: 's | Filesystem type to mount; defaults to ext4.',
    readOnly: readOnlyB,
  }),
  c('ScaleIOVolumeSource', 'A ScaleIO volume.', {
    gateway: 's! | Address of the ScaleIO API gateway.',
    system: 's! | Name of the storage system.',
    secretRef: 'LocalObjectReference! | Secret with the ScaleIO user\'s credentials.',
    sslEnabled: 'b | Use SSL to talk to the gateway.',
    protectionDomain: 's | Protection domain of the storage.',
    storagePool: 's | Storage pool of the protection domain.',
    storageMode: 's | ThickProvisioned or ThinProvisioned (default).',
    volumeName: 's | Name of a volume already created in the system.',
    fsType: 's | Filesystem type to mount; defaults to xfs.',
    readOnly: readOnlyB,
  }),
  c('StorageOSVolumeSource', 'A StorageOS volume.', {
    volumeName: 's | Name of the volume within the namespace.',
    volumeNamespace: 's | StorageOS namespace of the volume; defaults to the pod\'s namespace.',
    fsType,
    readOnly: readOnlyB,
    secretRef: 'LocalObjectReference | Secret with the StorageOS API credentials.',
  }),
  c('CSIVolumeSource', 'An ephemeral volume from a CSI driver.', {
    driver: 's! | Name of the CSI driver.',
    readOnly: 'b | Mount read-only. Defaults to false.',
    fsType: 's | Filesystem type, passed to the driver.',
    volumeAttributes: '{}s | Driver-specific properties.',
    nodePublishSecretRef: 'LocalObjectReference | Secret passed to the driver\'s publish and unpublish calls.',
  }),
  c('EphemeralVolumeSource', 'A generic ephemeral volume backed by a claim created for the pod.', {
    volumeClaimTemplate: 'PersistentVolumeClaimTemplate | Template of the claim; it is named <pod>-<volume> and owned by the pod.',
  }),
  c('PersistentVolumeClaimTemplate', 'Template for the claim of an ephemeral volume.', {
    metadata: 'ObjectMeta | Labels and annotations copied to the claim; other metadata fields are rejected.',
    spec: 'PersistentVolumeClaimSpec! | Spec of the claim, copied unchanged.',
  }),
  c('PersistentVolumeClaimSpec', 'Desired characteristics of a volume claim.', {
    accessModes: '[]s enum=ReadOnlyMany,ReadWriteMany,ReadWriteOnce,ReadWriteOncePod go=PersistentVolumeAccessMode lt=atomic | Access modes the volume must support.',
    selector: 'LabelSelector | Label query over volumes to bind to.',
    resources: 'VolumeResourceRequirements | Minimum (and possibly maximum) storage the volume must have.',
    volumeName: 's | Bind to this PersistentVolume.',
    storageClassName: 's | StorageClass to provision from.',
    volumeMode: 's enum=Block,Filesystem go=PersistentVolumeMode | Filesystem (default) or Block.',
    dataSource: 'TypedLocalObjectReference | Existing snapshot or claim to populate the volume from.',
    dataSourceRef: 'TypedObjectReference | Object to populate the volume from, including populator-backed custom resources.',
    volumeAttributesClassName: 's gate=VolumeAttributesClass | VolumeAttributesClass for the volume.',
  }),
  c('VolumeResourceRequirements', 'Storage requests and limits of a volume claim.', {
    limits: 'rl | Most storage allowed.',
    requests: 'rl | Least storage required.',
  }),
  c(
    'TypedLocalObjectReference',
    'Refers to an object of a given kind in the same namespace.',
    {
      apiGroup: 's | API group of the referent; empty for the core group.',
      kind: 's! | Kind of the referent.',
      name: 's! | Name of the referent.',
    },
    { mapType: 'atomic' },
  ),
  c('TypedObjectReference', 'Refers to an object of a given kind, possibly in another namespace.', {
    apiGroup: 's | API group of the referent; empty for the core group.',
    kind: 's! | Kind of the referent.',
    name: 's! | Name of the referent.',
    namespace: 's gate=CrossNamespaceVolumeDataSource | Namespace of the referent, when it is not the claim\'s.',
  }),
  c('ImageVolumeSource', 'An OCI image or artifact mounted as a read-only volume.', {
    reference: 's | Image or artifact reference, as for a container image.',
    pullPolicy: 's enum=Always,IfNotPresent,Never go=PullPolicy | When to pull: Always, Never or IfNotPresent; defaults to Always for :latest, IfNotPresent otherwise.',
  }),
];
